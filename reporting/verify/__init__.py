"""Verification: every round of a period checked by the engine, findings stored with where
they came from.
"""
