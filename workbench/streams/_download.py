"""Where the real data sets live on disk, and fetching one file of them safely.

``data_home`` is ``~/workbench_data`` unless the caller passes one or ``WORKBENCH_DATA`` names
one.  ``WORKBENCH_DATA_MIRROR`` is a URL prefix that replaces the scheme and host of every source
URL (``https://archive.ics.uci.edu/ml/x.gz`` becomes ``$MIRROR/ml/x.gz``), for clusters that only
reach an internal mirror.

A download goes to a temporary file of its own beside its final place (``<name>.<random>.part``:
two processes loading the same data set at once never write into one file) and is renamed
atomically only when the number of bytes received equals the server's ``Content-Length``; on
any error the temporary file is removed.  Its SHA-256, computed while it arrives, is recorded
beside it as ``<name>.sha256`` (the format of ``sha256sum``, so ``sha256sum -c <name>.sha256``
checks it by hand); a file read later is checked against that record (:func:`verify`), and a
file put there by hand gets its record the first time it is read successfully.  The name a file
is stored under is always the registry's, never one a server sends (a redirect's URL or a
``Content-Disposition``), and a redirect to another host, to a non-HTTP scheme or to a path with
``..`` is refused.  urllib, tqdm and the rest are imported inside the functions, so ``import
workbench.streams`` stays light.
"""

from __future__ import annotations

import hashlib
import os
import sys
import tempfile
from pathlib import Path

ENV_HOME = "WORKBENCH_DATA"
ENV_MIRROR = "WORKBENCH_DATA_MIRROR"
DEFAULT_HOME = "~/workbench_data"
TIMEOUT = 60.0  # seconds without a byte before a download is abandoned
_CHUNK = 1 << 20


class DownloadError(OSError):
    """A file could not be downloaded, or arrived incomplete; the message says what to do."""


class ChecksumError(ValueError):
    """A data file no longer matches the SHA-256 recorded when it arrived; the message names
    both sums and the fix."""


def sha256_of(path: Path) -> str:
    """The SHA-256 of a file's contents (read in 1 MiB blocks)."""
    h = hashlib.sha256()
    with open(path, "rb") as fh:
        for block in iter(lambda: fh.read(_CHUNK), b""):
            h.update(block)
    return h.hexdigest()


def checksum_file(path: Path) -> Path:
    """Where the SHA-256 of ``path`` is recorded: ``<name>.sha256`` beside it."""
    path = Path(path)
    return path.with_name(path.name + ".sha256")


def record_checksum(path: Path, digest: str) -> Path:
    """Record ``digest`` as the SHA-256 of ``path`` (one line as ``sha256sum`` writes it,
    through a temporary file and an atomic rename)."""
    from ._cache import readable_like_a_new_file

    path = Path(path)
    target = checksum_file(path)
    fd, tmp = tempfile.mkstemp(prefix=target.name + ".", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="ascii") as fh:
            fh.write(f"{digest}  {path.name}\n")
        readable_like_a_new_file(tmp)
        os.replace(tmp, target)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return target


def recorded_checksum(path: Path) -> str | None:
    """The SHA-256 recorded for ``path``, or None when there is no record."""
    record = checksum_file(path)
    try:
        text = record.read_text(encoding="ascii", errors="replace").split()
    except FileNotFoundError:
        return None
    digest = text[0].lower() if text else ""
    if len(digest) != 64 or any(c not in "0123456789abcdef" for c in digest):
        raise ChecksumError(
            f"{record} does not hold a SHA-256 (64 hex digits); delete it and the file's "
            f"checksum is recorded afresh at its next use"
        )
    return digest


def verify(path: Path) -> tuple[str, bool]:
    """Check ``path`` against its recorded SHA-256; return the sum and whether a record exists
    (a file put there by hand has none: the caller records it once the file has been read
    successfully).  A mismatch is a :class:`ChecksumError` naming both sums."""
    path = Path(path)
    actual = sha256_of(path)
    expected = recorded_checksum(path)
    if expected is not None and actual != expected:
        raise ChecksumError(
            f"{path} no longer matches the SHA-256 recorded when it arrived: its contents "
            f"hash to {actual}, and {checksum_file(path).name} records {expected}.  The file "
            f"changed since (damaged on disk, or replaced by another file).  Delete both files "
            f"to download it again, or delete {checksum_file(path).name} to accept the file as "
            f"it is now"
        )
    return actual, expected is not None


def data_home(data_home=None) -> Path:
    """The folder that holds the downloaded data sets (not created here)."""
    home = data_home if data_home is not None else os.environ.get(ENV_HOME) or DEFAULT_HOME
    return Path(home).expanduser()


def mirrored(url: str) -> str:
    """``url`` with its scheme and host replaced by ``$WORKBENCH_DATA_MIRROR`` when that is set."""
    mirror = os.environ.get(ENV_MIRROR, "").strip()
    if not mirror:
        return url
    from urllib.parse import urlsplit

    parts = urlsplit(url)
    tail = parts.path + (f"?{parts.query}" if parts.query else "")
    return mirror.rstrip("/") + tail


def _has_dot_dot(path: str) -> bool:
    from urllib.parse import unquote

    return any(seg == ".." for seg in unquote(path).replace("\\", "/").split("/"))


def _redirect_guard(url: str, extra_hosts: tuple[str, ...]):
    """A urllib redirect handler that follows only same-host (or listed-host) HTTP(S) redirects."""
    from urllib.parse import urlsplit
    from urllib.request import HTTPRedirectHandler

    start = urlsplit(url)

    class Guard(HTTPRedirectHandler):
        def redirect_request(self, req, fp, code, msg, headers, newurl):
            target = urlsplit(newurl)
            host = (target.hostname or "").lower()
            same = target.netloc == start.netloc
            listed = any(h == "*" or host == h or host.endswith("." + h) for h in extra_hosts)
            # urllib has already resolved '..' in newurl against the old URL: look at what was sent
            sent = urlsplit(headers.get("Location") or headers.get("URI") or "").path
            climbs = _has_dot_dot(target.path) or _has_dot_dot(sent)
            if target.scheme not in ("http", "https") or not (same or listed) or climbs:
                raise DownloadError(
                    f"refused a redirect from {url} to {newurl}: only redirects to "
                    f"the same host (or {list(extra_hosts) or 'none other'}) over "
                    f"HTTP(S), without '..' in the path, are followed"
                )
            return super().redirect_request(req, fp, code, msg, headers, newurl)

    return Guard()


def show_progress(progress) -> bool:
    """``progress=None`` shows a bar when stderr is a terminal or the caller is a Jupyter kernel
    (where tqdm.auto draws a widget); ``True`` / ``False`` force it on or off."""
    if progress is None:
        return bool(getattr(sys.stderr, "isatty", lambda: False)()) or "ipykernel" in sys.modules
    return bool(progress)


def download(
    url: str,
    dest: Path,
    progress=None,
    timeout: float = TIMEOUT,
    extra_hosts: tuple[str, ...] = (),
    sha256: str | None = None,
) -> str:
    """Download ``url`` to ``dest`` through a temporary file of this call's own, record the
    file's SHA-256 beside it and return it; raise :class:`DownloadError` on failure.

    With ``sha256`` (a checksum published for the file) a file whose contents hash to anything
    else is a :class:`ChecksumError` and is not kept; since its contents are then known in
    advance, redirects to other hosts are followed (over HTTP(S), without ``..``: a CDN).  The
    caller turns the errors into a message that says where to put the file by hand.
    """
    import http.client
    import urllib.error
    import urllib.request

    from tqdm.auto import tqdm

    from ._cache import readable_like_a_new_file

    dest = Path(dest)
    dest.parent.mkdir(parents=True, exist_ok=True)
    fd, name = tempfile.mkstemp(prefix=dest.name + ".", suffix=".part", dir=dest.parent)
    os.close(fd)
    part = Path(name)
    digest = hashlib.sha256()
    hosts = ("*",) if sha256 else extra_hosts
    opener = urllib.request.build_opener(_redirect_guard(url, hosts))
    request = urllib.request.Request(url, headers={"User-Agent": "workbench-data-loader"})
    try:
        try:
            with opener.open(request, timeout=timeout) as response, open(part, "wb") as fh:
                length = response.headers.get("Content-Length")
                expected = int(length) if length and length.isdigit() else None
                got = 0
                with tqdm(
                    total=expected,
                    unit="B",
                    unit_scale=True,
                    unit_divisor=1024,
                    desc=dest.name,
                    disable=not show_progress(progress),
                    leave=False,
                ) as bar:
                    while True:
                        try:
                            chunk = response.read(_CHUNK)
                        except http.client.IncompleteRead as exc:
                            got += len(exc.partial)
                            break
                        if not chunk:
                            break
                        fh.write(chunk)
                        digest.update(chunk)
                        got += len(chunk)
                        bar.update(len(chunk))
        except urllib.error.HTTPError as exc:
            raise DownloadError(f"HTTP {exc.code} {exc.reason}") from None
        except urllib.error.URLError as exc:
            reason = exc.reason
            if isinstance(reason, DownloadError):
                raise reason from None
            raise DownloadError(str(reason)) from None
        except (TimeoutError, ConnectionError, http.client.HTTPException) as exc:
            raise DownloadError(f"{type(exc).__name__}: {exc}") from None
        if expected is not None and got != expected:
            raise DownloadError(
                f"the download of {dest.name} was truncated: {got:,} of "
                f"{expected:,} bytes arrived (the partial file was removed; try again)"
            )
        if got == 0:
            raise DownloadError(f"the server sent an empty file for {dest.name}")
        if sha256 and digest.hexdigest() != sha256.lower():
            raise ChecksumError(
                f"{url} sent a file whose SHA-256 is {digest.hexdigest()}, where {sha256} is "
                f"published for it; it was not kept"
            )
        readable_like_a_new_file(part)
        os.replace(part, dest)
    except BaseException:
        part.unlink(missing_ok=True)
        raise
    record_checksum(dest, digest.hexdigest())
    return digest.hexdigest()
