"""The SQLite store: the whole schema with its version, loading the readers' records file by
file (one transaction each), and the queries the later stages share.
"""
