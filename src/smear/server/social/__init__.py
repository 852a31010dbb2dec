"""What players say and find: a table's chat and reactions, and the list of open tables."""
