"""``python -m smear``: the same as the ``smear`` command."""

from smear.cli import main

if __name__ == "__main__":
    main()
