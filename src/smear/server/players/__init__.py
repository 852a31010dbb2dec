"""Players and what is worked out for them: profiles and history over HTTP (api) and how often
profiles may be made (profilepace), ratings and statistics, hints and reviews, and the work done off
the event loop (replays, reviews, uploads)."""
