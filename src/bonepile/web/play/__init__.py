"""Live play: a table in memory, its sockets, the handlers of what a seat sends, the driver
that plays what nobody decides, rematches and chat moderation."""
