"""``python -m ddzrules.cli``: the ``ddzrules`` command without its console script."""

from ddzrules.cli import main

main()
