"""The games the table platform hosts: GAMES, name -> GameKind."""
