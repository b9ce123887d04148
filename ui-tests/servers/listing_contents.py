"""The test servers' contents manager: the server's own, with one race fixed.

The tests share a server between two workers, and each test deletes its
directory when it ends (``FileContentsManager.always_delete_dir``: a
``shutil.rmtree``). jupyter_server 2.21 lists a directory by reading its
names, then building each child's model: a child removed between the two
makes the whole listing answer 404 ("directory does not exist"). A page
that lists the root at that moment (JupyterLab's file browser does at every
load) shows "Directory not found" and never gets its main area: a fresh-clone
run failed so (review-tools.spec.ts, lab, 2026-12-05; the other worker's
test had just deleted its directory, the server log shows both).

Here a listing that fails with 404 while the directory itself is still there
is read again: the 404 was a child's, gone in the meantime, and the next
read does not list it. A path that does not exist still answers 404 at once.
Nothing else changes.
"""

from jupyter_server.services.contents.largefilemanager import AsyncLargeFileManager
from tornado import web

#: how many times a listing is read again while its children keep vanishing
LISTING_ATTEMPTS = 5


class ListingContentsManager(AsyncLargeFileManager):
    """AsyncLargeFileManager, whose directory listings survive a child removed meanwhile."""

    async def get(self, path, content=True, type=None, format=None, require_hash=False):  # noqa: A002
        for attempt in range(1, LISTING_ATTEMPTS + 1):
            try:
                return await super().get(
                    path, content=content, type=type, format=format, require_hash=require_hash
                )
            except web.HTTPError as error:
                listing = content and type in (None, "directory")
                if (
                    error.status_code != 404
                    or not listing
                    or attempt == LISTING_ATTEMPTS
                    or not await self.dir_exists(path)
                ):
                    raise
                self.log.info("listing %r again: an entry vanished while it was read", path)
        raise AssertionError("unreachable")
