"""``python -m ddzrules``: the ``ddzrules`` command, where its console script is not on the
PATH (a ``pip install --user``, a virtual environment not activated)."""

from ddzrules.cli import main

main()
