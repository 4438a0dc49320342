"""The pure game model and rules engine: cards, hand values and drawing rules, bets and pay
tables, money in cents, exact odds and the theoretical figures of a game.

No I/O, no clock, no float: frozen facts in, frozen records out. Imports nothing of the
package above it (``tests/test_layers.py`` holds that).
"""
