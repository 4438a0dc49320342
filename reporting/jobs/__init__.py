"""Scheduled jobs over the whole pipeline: the monthly run of the 5th."""
