"""A headless Chromium (Debian's ``chromium``) driven through the DevTools protocol: open a page, read its
DOM, take screenshots at a window size. Only loopback addresses are used."""

from __future__ import annotations

import asyncio
import base64
import itertools
import json
import shutil
import subprocess
import tempfile
import threading
import time
import urllib.request
from pathlib import Path
from typing import Any

import aiohttp

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")


class Browser:
    """One Chromium with one page open at ``url``, ``size`` (width, height) CSS pixels."""

    def __init__(self, url: str, size: tuple[int, int] = (360, 740)) -> None:
        assert CHROMIUM is not None
        self.home = tempfile.mkdtemp(prefix="share-chromium-")
        self.proc = subprocess.Popen(
            # as root Chromium needs --no-sandbox; the rest keep it off the (closed) network and quick to start
            [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-extensions",
             "--disable-background-networking", "--disable-component-update", "--disable-sync",
             "--remote-debugging-address=127.0.0.1", "--remote-debugging-port=0", f"--user-data-dir={self.home}",
             f"--window-size={size[0]},{size[1]}", "--hide-scrollbars", url],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        active = Path(self.home) / "DevToolsActivePort"
        deadline = time.monotonic() + 60
        while not (active.exists() and active.read_text().count("\n") >= 1):
            if time.monotonic() > deadline or self.proc.poll() is not None:
                raise RuntimeError("chromium did not start")
            time.sleep(0.1)
        port = int(active.read_text().split()[0])
        while True:
            pages = json.load(urllib.request.urlopen(f"http://127.0.0.1:{port}/json/list"))
            pages = [p for p in pages if p.get("type") == "page"]
            if pages:
                break
            time.sleep(0.1)
        self.ws_url = pages[0]["webSocketDebuggerUrl"]
        self._ids = itertools.count(1)
        self._waiting: dict[int, asyncio.Future[dict[str, Any]]] = {}
        self.loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self._thread.start()
        # one DevTools session for the page's whole life: an emulated size lasts as long as its session
        self._session = asyncio.run_coroutine_threadsafe(self._open(), self.loop).result(30)

    async def _open(self) -> Any:
        session = aiohttp.ClientSession()
        self._ws = await session.ws_connect(self.ws_url, max_msg_size=0)
        self.loop.create_task(self._pump())
        return session

    async def _pump(self) -> None:
        async for msg in self._ws:
            data = json.loads(msg.data)
            future = self._waiting.pop(data.get("id", -1), None)
            if future is not None and not future.done():
                future.set_result(data)

    async def _call(self, method: str, params: dict[str, Any]) -> dict[str, Any]:
        ident = next(self._ids)
        future: asyncio.Future[dict[str, Any]] = self.loop.create_future()
        self._waiting[ident] = future
        await self._ws.send_json({"id": ident, "method": method, "params": params})
        data = await asyncio.wait_for(future, 30)
        if "error" in data:
            raise RuntimeError(f"{method}: {data['error']}")
        return dict(data.get("result", {}))

    def call(self, method: str, **params: Any) -> dict[str, Any]:
        return asyncio.run_coroutine_threadsafe(self._call(method, params), self.loop).result(40)

    def evaluate(self, expression: str) -> Any:
        return self.call("Runtime.evaluate", expression=expression, returnByValue=True)["result"].get("value")

    def navigate(self, url: str) -> None:
        self.call("Page.navigate", url=url)

    def resize(self, width: int, height: int) -> None:
        self.call("Emulation.setDeviceMetricsOverride", width=width, height=height, deviceScaleFactor=1,
                  mobile=False, screenWidth=width, screenHeight=height)

    def tap(self, selector: str) -> None:
        """A finger's tap on the middle of the first element matching ``selector`` (scrolled into view):
        touch events at that point, so the page's own hit-testing decides what is touched."""
        box = self.evaluate(f"(() => {{ const e = document.querySelector({json.dumps(selector)}); "
                            "e.scrollIntoView({block: 'center'}); const r = e.getBoundingClientRect(); "
                            "return [r.left + r.width / 2, r.top + r.height / 2]; })()")
        x, y = box
        self.call("Emulation.setTouchEmulationEnabled", enabled=True, maxTouchPoints=1)
        self.call("Input.dispatchTouchEvent", type="touchStart", touchPoints=[{"x": x, "y": y}])
        self.call("Input.dispatchTouchEvent", type="touchEnd", touchPoints=[])

    def screenshot(self, path: Path) -> None:
        data = self.call("Page.captureScreenshot", format="png")["data"]
        path.write_bytes(base64.b64decode(data))

    def close(self) -> None:
        async def shut() -> None:
            await self._ws.close()
            await self._session.close()

        asyncio.run_coroutine_threadsafe(shut(), self.loop).result(10)
        self.loop.call_soon_threadsafe(self.loop.stop)
        self._thread.join(10)
        self.proc.terminate()
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
        shutil.rmtree(self.home, ignore_errors=True)
