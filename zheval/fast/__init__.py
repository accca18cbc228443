"""Layer 4, fast twins: corpus-at-once (vectorised) versions of the definitions, each naming the reference function
it equals. :data:`TWINS` lists them (a test walks the table) and :func:`usable_for` is the one decision whether a
fast path can serve a request."""
