"""Several server processes serving the same tables through Redis: who owns each table and the
messages between processes (coordination), and this process's side of it (sharing)."""
