"""Configuration: the shipped game catalogue and an operator's TOML, validated into game records.

Looks down on the engine and the records only.
"""
