"""The speed machinery, in one place so that the domain modules read as the rules they are:
the C kernels (``_quick.c``, typed by ``_quick.pyi``), the build switch and the compiled
build's shims (``build``), the keyed on-disk cache of tables (``cache``) and the in-memory
memos and intern tables (``memo``). Nothing here changes an answer: every kernel has a
pure-Python twin, and a cache miss or a value dropped from a memo only costs time
(docs/compiled.md, docs/speed.md)."""
