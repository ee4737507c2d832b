"""Serves the URLs the worker fetched with web_fetch for one python_execute call (the sandbox has no network).

Loaded by the python_execute prelude as the module `sheetbench_downloads` only when a call's code names URLs that were
fetched for it. GETs of exactly those URLs through `requests` and `urllib.request.urlopen` (which pandas' readers use)
are answered from the saved files; every other request goes to the real functions, which find no network. The
embedded models also call the web_fetch tool as a Python function (`json.loads(web_fetch(url))`, NameError three times
on the analysis suite's a09): `web_fetch(url)` in Python returns a served URL's body as text (with .text and .json()),
and says what to do for any other URL.
"""
import io
import json
import os

_served = {}
_originals = {}


def serve(mapping):
    """Serve `mapping` (URL -> absolute path of the saved body) during this call; an empty mapping serves nothing."""
    _served.clear()
    _served.update(mapping)
    if _served and not _originals:
        _patch_urllib()
        _patch_requests()


class _SavedResponse(io.BytesIO):
    """What urlopen returns for a served URL: the saved body, status 200."""

    def __init__(self, path, url):
        with open(path, 'rb') as f:
            super().__init__(f.read())
        self.url = url
        self.status = 200
        self.code = 200
        self.reason = 'OK'
        self.headers = {}

    def getcode(self):
        return 200

    def geturl(self):
        return self.url

    def info(self):
        return self.headers


def _patch_urllib():
    import urllib.request
    original = _originals['urlopen'] = urllib.request.urlopen

    def urlopen(url, *args, **kwargs):
        target = url if isinstance(url, str) else getattr(url, 'full_url', None)
        method = 'GET' if isinstance(url, str) else url.get_method()
        path = _served.get(target) if method == 'GET' else None
        return _SavedResponse(path, target) if path else original(url, *args, **kwargs)

    urllib.request.urlopen = urlopen


def _patch_requests():
    try:
        import requests
    except ImportError:
        return
    original = _originals['request'] = requests.Session.request

    def request(self, method, url, *args, **kwargs):
        path = _served.get(url) if str(method).upper() == 'GET' else None
        if not path:
            return original(self, method, url, *args, **kwargs)
        response = requests.models.Response()
        with open(path, 'rb') as f:
            response._content = f.read()
        response.status_code = 200
        response.reason = 'OK'
        response.url = url
        response.encoding = 'utf-8'
        response.request = requests.Request(method, url).prepare()
        return response

    requests.Session.request = request


class FetchedText(str):
    """A served URL's body as text; `.text` and `.json()` as on a requests response."""

    @property
    def text(self):
        return str(self)

    def json(self):
        return json.loads(self)


def web_fetch(url, *args, **kwargs):
    """The web_fetch tool's name in Python: the body of a URL fetched for this call's code, as text."""
    path = _served.get(url)
    if not path:
        raise RuntimeError(
            'web_fetch in Python reads only URLs written as quoted strings in the code of this call (they are '
            'downloaded before it runs); %r is not one of them. Write the URL in the code, or call the web_fetch '
            'tool and read the file it saves.' % (url,))
    with open(path, 'rb') as f:
        return FetchedText(f.read().decode('utf-8', errors='replace'))
