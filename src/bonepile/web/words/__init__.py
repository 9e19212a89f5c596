"""What the server says in words: the variant catalogue, labels, the client's languages, names
and the How to play pages."""
