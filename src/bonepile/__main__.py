"""python -m bonepile: the bonepile command."""

from .cli import main

if __name__ == "__main__":
    main()
