def play():
    """Play against bots in the terminal."""
