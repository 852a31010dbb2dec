"""The server's storage: the database (:mod:`.database`, whose ``Storage`` holds a part per subject:
chat, listing, players, quarantine), the transactions they share, the schema and its Alembic
migrations, the rows stored and read back, the database drivers' tuning, and the one storage thread
that writes (the group commit of actions)."""
