"""``python -m bonepile.cli``: the bonepile command."""

from . import main

if __name__ == "__main__":
    main()
