"""The composer's core: the document, checks while typing, request building and previews.

No Qt and no HTTP: `ui/composer` edits a `ComposerDocument`, shows `checks.check_document()`
at the fields, and hands `batch.build_batch()` / `batch.build_update()` to the sender.
"""
