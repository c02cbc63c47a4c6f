"""Every word a user reads, Turkish and English, and the helpers that escape text and link rule IDs."""
