"""Log profiles: declarative descriptions of how a game provider's own export maps onto the
round log's records (where the rounds are, field paths, the card dialect, bet types, time
units, money scale, void statuses, which table or game is which configured game)."""
