"""How things look: tiles, racks, the table, charts and panels drawn from the state's reads."""
