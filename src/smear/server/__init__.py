"""The game server: tables, seats and matches kept in a database and played over Socket.IO."""
