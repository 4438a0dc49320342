"""baccarat-report: compliance reporting for regulated online baccarat."""

__version__ = "0.1.0"
