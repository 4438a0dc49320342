"""Figures computed from verified play: statistics against the exact theory, and the
regulators' disclosures.
"""
