"""Work done off the event loop: the bots' searches, post-game analyses and replays."""
