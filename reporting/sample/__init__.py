"""Synthetic round logs: a realistic month of play for every configured game, with known
faults injected on request (for demos, tests and benchmarks).
"""
