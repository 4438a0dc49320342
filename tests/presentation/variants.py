"""The variant games the presentation tests publish: an EZ table (ADM, no single declared
RTP, so its ADM block gives each bet's), a no-commission table and a Tiger table, each in every
language (the ``variant_config`` fixture of conftest.py loads them)."""

from __future__ import annotations

#: The operator configuration of the variant games (the catalogue's bets, their default pays).
VARIANTS_TOML = """
[operator]
name = "Casinò Esempio S.p.A."
licences = { IT = "ADM-0000-ESEMPIO", DK = "SPIL-0000-EKSEMPEL", GR = "HGC-0000-PARADEIGMA" }

[games.ez-baccarat]
base = "mini-baccarat-it"
name = "EZ Baccarat"
bets = ["player", "banker_ez", "tie", "dragon_7", "panda_8"]
languages = ["it", "da", "el", "en"]
regulator_code = "2399"
opening_hours = "24h"

[games.no-commission]
base = "live-baccarat-dk"
name = "No Commission Baccarat"
bets = ["player", "banker_no_commission", "tie", "super_6"]
languages = ["it", "da", "el", "en"]

[games.tiger]
base = "live-baccarat-gr"
name = "Tiger Baccarat"
bets = ["player", "banker", "tie", "tiger", "small_tiger", "big_tiger", "tiger_tie", "tiger_pair"]
exclusive_bets = []
languages = ["it", "da", "el", "en"]
"""
VARIANT_GAMES = ("ez-baccarat", "no-commission", "tiger")
