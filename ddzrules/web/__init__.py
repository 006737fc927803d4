"""The playground: ``ddzrules serve``, a local web page to edit a spec and play it at once.

* :mod:`~ddzrules.web.jobs`: what it computes (validate, census, sheet, classify, compare,
  diff, games, replays), one function a job, on the editor's text;
* :mod:`~ddzrules.web.lanes`: the worker processes that run the jobs, each job's time and
  memory bounded;
* :mod:`~ddzrules.web.deadline`: time bounds checked inside the work (a job, a bot's decision);
* :mod:`~ddzrules.web.games`: the games in play, kept by the server as their journals, and
  each client's quota;
* :mod:`~ddzrules.web.app`: the Starlette application (the page, its assets, the JSON API;
  each client's requests and turns);
* :mod:`~ddzrules.web.server`: Hypercorn and its timeouts for slow and idle connections;
* ``static/``: the page itself (HTML, CSS and JavaScript written for it, no framework).

Needs the ``web`` extra (``pip install 'ddzrules[web]'``: Starlette and Hypercorn); see
docs/playground.md.
"""
