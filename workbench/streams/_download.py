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
ENV_DEADLINE = "WORKBENCH_DOWNLOAD_DEADLINE"
DEADLINE = 600.0  # seconds any download may take; after them it must average MIN_RATE
MIN_RATE = 64 * 1024  # bytes a second, on average, of a download past its first DEADLINE s
PART_STALE = 900.0  # seconds without a write after which a ``.part`` is a killed download's
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
    if data_home is not None:
        home, what = data_home, "data_home"
        if not isinstance(home, (str, os.PathLike)):
            raise ValueError(f"data_home must be a folder (a str or a Path), got {home!r}")
    elif os.environ.get(ENV_HOME):
        home, what = os.environ[ENV_HOME], f"${ENV_HOME}"
    else:
        home, what = DEFAULT_HOME, "the default data folder"
    try:
        return Path(home).expanduser()
    except RuntimeError as exc:  # "~someone" of a user who does not exist, or no $HOME
        raise ValueError(
            f"{what} = {str(home)!r} names no folder: {exc} (a leading '~' must be followed by "
            f"'/' or an existing user's name); set {ENV_HOME} to a folder such as "
            "~/workbench_data"
        ) from None


def mirror_prefix() -> str:
    """``$WORKBENCH_DATA_MIRROR``, checked: an ``http://`` or ``https://`` URL prefix with a
    host, or '' when it is not set."""
    mirror = os.environ.get(ENV_MIRROR, "").strip()
    if not mirror:
        return ""
    from urllib.parse import urlsplit

    try:
        parts = urlsplit(mirror)
        host = parts.hostname
        _ = parts.port  # a port that is not a number raises here
    except ValueError as exc:
        host, parts = None, None
        why = str(exc)
    else:
        why = ""
    if parts is None or parts.scheme not in ("http", "https") or not host:
        raise ValueError(
            f"${ENV_MIRROR} = {mirror!r} is not a URL prefix such as "
            f"'https://mirror.example.org/data'{f' ({why})' if why else ''}: it must start "
            "with http:// or https:// and name a host"
        )
    return mirror


def mirrored(url: str) -> str:
    """``url`` with its scheme and host replaced by ``$WORKBENCH_DATA_MIRROR`` when that is set."""
    mirror = mirror_prefix()
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


def deadline_floor() -> float:
    """The seconds a download may take whatever its size: ``$WORKBENCH_DOWNLOAD_DEADLINE``
    (a positive number) or :data:`DEADLINE`."""
    text = os.environ.get(ENV_DEADLINE, "").strip()
    if not text:
        return DEADLINE
    try:
        value = float(text)
    except ValueError:
        value = float("nan")
    if not value > 0 or value == float("inf"):
        raise ValueError(
            f"${ENV_DEADLINE} = {text!r} is not a positive number of seconds (the time a "
            f"download may take before it must average {MIN_RATE // 1024} KiB/s)"
        )
    return value


def remove_stale_parts(dest: Path, stale: float = PART_STALE) -> list[Path]:
    """Remove the temporary files (``<name>.<random>.part``) of downloads of ``dest`` that no
    process has written to for ``stale`` seconds: a live download writes every chunk it gets
    and gives up after ``TIMEOUT`` seconds without one, so such a file was left by a process
    that was killed.  Returns what was removed."""
    import time

    dest = Path(dest)
    removed = []
    if not dest.parent.is_dir():
        return removed
    now = time.time()
    for part in dest.parent.glob(glob_escape(dest.name) + ".*.part"):
        try:
            if now - part.stat().st_mtime > stale:
                part.unlink()
                removed.append(part)
        except FileNotFoundError:  # another process removed it first
            pass
    return removed


def glob_escape(name: str) -> str:
    import glob

    return glob.escape(name)


def _looks_like_html(head: bytes, content_type: str) -> bool:
    """A web page (a login, error or "moved" page) rather than a data file."""
    if content_type.split(";")[0].strip().lower() in ("text/html", "application/xhtml+xml"):
        return True
    start = head.lstrip()[:64].lower()
    return start.startswith((b"<!doctype html", b"<html", b"<head", b"<?xml version"))


def download(
    url: str,
    dest: Path,
    progress=None,
    timeout: float = TIMEOUT,
    extra_hosts: tuple[str, ...] = (),
    sha256: str | None = None,
    size: int | None = None,
    max_bytes: int | None = None,
) -> str:
    """Download ``url`` to ``dest`` through a temporary file of this call's own, record the
    file's SHA-256 beside it and return it; raise :class:`DownloadError` on failure.

    With ``sha256`` (a checksum published for the file) a file whose contents hash to anything
    else is a :class:`ChecksumError` and is not kept; since its contents are then known in
    advance, redirects to other hosts are followed (over HTTP(S), without ``..``: a CDN).
    ``size`` (the file's documented size in bytes) must match what arrives, with or without a
    ``Content-Length``; more than ``max_bytes`` stops the download (a server sending junk).  A
    web page (HTML) is refused.  A download may take :func:`deadline_floor` seconds (10
    minutes), and after that must have averaged :data:`MIN_RATE` bytes a second: a server that
    sends a byte now and then is abandoned (``timeout`` bounds one read only).  The temporary
    files of killed downloads of ``dest`` are removed first (:func:`remove_stale_parts`).  The
    caller turns the errors into a message that says where to put the file by hand.
    """
    import http.client
    import time
    import urllib.error
    import urllib.request

    from tqdm.auto import tqdm

    from ._cache import readable_like_a_new_file

    dest = Path(dest)
    floor = deadline_floor()
    dest.parent.mkdir(parents=True, exist_ok=True)
    remove_stale_parts(dest)
    fd, name = tempfile.mkstemp(prefix=dest.name + ".", suffix=".part", dir=dest.parent)
    os.close(fd)
    part = Path(name)
    digest = hashlib.sha256()
    hosts = ("*",) if sha256 else extra_hosts
    opener = urllib.request.build_opener(_redirect_guard(url, hosts))
    request = urllib.request.Request(url, headers={"User-Agent": "workbench-data-loader"})
    began = time.monotonic()

    def too_slow(got: int) -> bool:
        return time.monotonic() - began > max(floor, got / MIN_RATE)

    def slow_error(got: int) -> DownloadError:
        took = time.monotonic() - began
        return DownloadError(
            f"the download of {dest.name} was abandoned after {took:,.0f} s with {got:,} "
            f"bytes: it may take {floor:g} s, and after that must average "
            f"{MIN_RATE // 1024} KiB/s (set ${ENV_DEADLINE} to a number of seconds to allow "
            "more)"
        )

    try:
        try:
            with (
                opener.open(request, timeout=min(timeout, floor)) as response,
                open(part, "wb") as fh,
            ):
                length = response.headers.get("Content-Length")
                expected = int(length) if length and length.isdigit() else None
                if size is not None and expected is not None and expected != size:
                    raise DownloadError(
                        f"the server announces {expected:,} bytes for {dest.name}, whose "
                        f"documented size is {size:,}: not the expected file"
                    )
                kind = response.headers.get("Content-Type") or ""
                got = 0
                with tqdm(
                    total=expected if expected is not None else size,
                    unit="B",
                    unit_scale=True,
                    unit_divisor=1024,
                    desc=dest.name,
                    disable=not show_progress(progress),
                    leave=False,
                ) as bar:
                    while True:
                        if too_slow(got):
                            raise slow_error(got)
                        try:
                            # read1: what one read of the socket brings (read() would wait
                            # for a whole chunk, past any deadline, from a slow server)
                            chunk = response.read1(_CHUNK)
                        except http.client.IncompleteRead as exc:
                            got += len(exc.partial)
                            break
                        if not chunk:
                            break
                        if got == 0 and _looks_like_html(chunk, kind):
                            raise DownloadError(
                                f"the server sent a web page (Content-Type "
                                f"{kind or 'not given'}) instead of {dest.name}: a login, "
                                "error or 'moved' page? (nothing was kept)"
                            )
                        fh.write(chunk)
                        fh.flush()  # the file's time shows a live download (stale parts)
                        digest.update(chunk)
                        got += len(chunk)
                        bar.update(len(chunk))
                        limit = size if size is not None else max_bytes
                        if limit is not None and got > limit:
                            what = (
                                f"its documented size, {size:,} bytes"
                                if size is not None
                                else f"the {max_bytes:,} bytes the documented rows can take"
                            )
                            raise DownloadError(
                                f"the server sent more for {dest.name} than {what}: not "
                                "the expected file (nothing was kept)"
                            )
        except urllib.error.HTTPError as exc:
            raise DownloadError(f"HTTP {exc.code} {exc.reason}") from None
        except urllib.error.URLError as exc:
            reason = exc.reason
            if isinstance(reason, DownloadError):
                raise reason from None
            if isinstance(reason, TimeoutError) and too_slow(0):
                raise slow_error(0) from None
            raise DownloadError(str(reason)) from None
        except (TimeoutError, ConnectionError, http.client.HTTPException) as exc:
            if isinstance(exc, TimeoutError) and too_slow(0):
                raise slow_error(part.stat().st_size) from None
            raise DownloadError(f"{type(exc).__name__}: {exc}") from None
        if expected is not None and got != expected:
            raise DownloadError(
                f"the download of {dest.name} was truncated: {got:,} of "
                f"{expected:,} bytes arrived (the partial file was removed; try again)"
            )
        if size is not None and got != size:
            raise DownloadError(
                f"the download of {dest.name} was truncated: {got:,} of its documented "
                f"{size:,} bytes arrived (the partial file was removed; try again)"
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
