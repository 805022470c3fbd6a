#!/usr/bin/env python3
"""A TCP forwarder that adds latency but no bandwidth limit (the benchmarks' slow link mode; netem is not
in this kernel).

  delay-proxy.py --listen 127.0.0.1:PORT --target HOST:PORT --delay-ms D [--port-file F]

Every chunk read from either side is timestamped and written to the other side D ms later, so a
request/response round trip gains 2*D. Reading goes on while chunks wait (one queue per direction), so the
delay does not cap throughput the way "read, sleep, write" would (that gives one buffer per D). Queued bytes
per direction are bounded (--max-queued-mib): above it reading pauses, and TCP flow control pushes back on
the sender. The bound is a bandwidth-delay product, so throughput per direction is at most bound/D: the
default, max(4 MiB, D x 256 MiB/s), keeps that above 256 MiB/s, beyond this store's ~150-250 MB/s and a
1gbit link. (Measured on 2 cores: ~300 MB/s per connection through the proxy at D=10 ms, CPU-bound.) EOF (half-close) is forwarded D ms after it is read, like data; a reset or error
on either side closes both. PORT 0 picks a free port. Prints "listening on HOST:PORT" and, with --port-file,
writes the port there. SIGTERM or SIGINT: stop and exit 0.

Not emulated: the TCP handshake. The client's connect completes at the proxy at once, so a new connection
costs no extra round trip (a real link of RTT 2*D would add one).
Standard library only (python3 >= 3.8).
"""
import argparse
import asyncio
import collections
import os
import signal
import socket
import sys

CHUNK = 256 * 1024


def host_port(text):
    host, sep, port = text.rpartition(":")
    if not sep or not host:
        raise argparse.ArgumentTypeError(f"expected HOST:PORT, got {text!r}")
    try:
        return host.strip("[]"), int(port)
    except ValueError:
        raise argparse.ArgumentTypeError(f"bad port in {text!r}") from None


def log(msg):
    print(f"[delay-proxy] {msg}", file=sys.stderr, flush=True)


def nodelay(writer):
    # Delayed chunks must leave at once: Nagle plus delayed ACKs would add up to 40 ms of its own.
    sock = writer.get_extra_info("socket")
    if sock is not None:
        try:
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        except OSError:
            pass


class Direction:
    """One direction of one connection: a reader task that timestamps and queues, a writer task that
    writes each chunk when it is due."""

    def __init__(self, reader, writer, delay, max_queued):
        self.reader, self.writer = reader, writer
        self.delay, self.max_queued = delay, max_queued
        self.queue = collections.deque()  # (due, bytes), or (due, None) for EOF
        self.queued = 0
        self.item = asyncio.Event()   # something was queued
        self.space = asyncio.Event()  # queued bytes fell below the cap
        self.space.set()

    async def read_side(self):
        loop = asyncio.get_running_loop()
        while True:
            data = await self.reader.read(CHUNK)
            self.queue.append((loop.time() + self.delay, data or None))
            self.item.set()
            if not data:
                return
            self.queued += len(data)
            if self.queued >= self.max_queued:
                self.space.clear()
                await self.space.wait()

    async def write_side(self):
        loop = asyncio.get_running_loop()
        while True:
            while not self.queue:
                self.item.clear()
                await self.item.wait()
            due, data = self.queue.popleft()
            wait = due - loop.time()
            if wait > 0:
                await asyncio.sleep(wait)
            if data is None:
                if self.writer.can_write_eof():
                    self.writer.write_eof()
                await self.writer.drain()
                return
            self.writer.write(data)
            await self.writer.drain()
            self.queued -= len(data)
            if self.queued < self.max_queued:
                self.space.set()


class Proxy:
    def __init__(self, target, delay, max_queued):
        self.target, self.delay, self.max_queued = target, delay, max_queued
        self.conns = set()

    async def handle(self, c_reader, c_writer):
        task = asyncio.current_task()
        self.conns.add(task)
        u_writer = None
        try:
            try:
                u_reader, u_writer = await asyncio.open_connection(*self.target, limit=CHUNK)
            except OSError as e:
                log(f"cannot connect to {self.target[0]}:{self.target[1]}: {e}")
                return
            nodelay(c_writer)
            nodelay(u_writer)
            up = Direction(c_reader, u_writer, self.delay, self.max_queued)
            down = Direction(u_reader, c_writer, self.delay, self.max_queued)
            tasks = [asyncio.ensure_future(t) for t in
                     (up.read_side(), up.write_side(), down.read_side(), down.write_side())]
            try:
                # Done when both directions have delivered their EOF; any error (reset, broken pipe)
                # ends the whole connection.
                pending = set(tasks)
                while pending:
                    done, pending = await asyncio.wait(pending, return_when=asyncio.FIRST_COMPLETED)
                    if any(not t.cancelled() and t.exception() is not None for t in done):
                        break
                    if tasks[1].done() and tasks[3].done():
                        break
            finally:
                for t in tasks:
                    t.cancel()
                await asyncio.gather(*tasks, return_exceptions=True)
        except asyncio.CancelledError:
            # Shutdown. Ending normally, not cancelled: on 3.11 asyncio's stream callback logs a traceback
            # for a cancelled connection task.
            pass
        finally:
            for w in (c_writer, u_writer):
                if w is not None:
                    w.close()
            for w in (c_writer, u_writer):
                if w is not None:
                    try:
                        await w.wait_closed()
                    except (OSError, asyncio.CancelledError):
                        pass
            self.conns.discard(task)


async def main():
    ap = argparse.ArgumentParser(description="TCP forwarder adding a fixed one-way delay in each direction")
    ap.add_argument("--listen", type=host_port, required=True, help="HOST:PORT (PORT 0: pick a free one)")
    ap.add_argument("--target", type=host_port, required=True, help="HOST:PORT to forward to")
    ap.add_argument("--delay-ms", type=float, required=True, help="one-way delay per direction, ms")
    ap.add_argument("--port-file", help="write the listening port here")
    ap.add_argument("--max-queued-mib", type=float,
                    help="bytes queued per direction before reading pauses (MiB; default max(4, D[s]*256))")
    args = ap.parse_args()
    if args.delay_ms < 0:
        ap.error("--delay-ms must be >= 0")

    max_queued_mib = args.max_queued_mib or max(4.0, args.delay_ms / 1000.0 * 256)
    proxy = Proxy(args.target, args.delay_ms / 1000.0, int(max_queued_mib * 1024 * 1024))
    server = await asyncio.start_server(proxy.handle, args.listen[0], args.listen[1], reuse_address=True,
                                        limit=CHUNK)
    host, port = server.sockets[0].getsockname()[:2]
    if args.port_file:
        tmp = f"{args.port_file}.tmp.{os.getpid()}"
        with open(tmp, "w") as f:
            f.write(f"{port}\n")
        os.replace(tmp, args.port_file)  # readers never see a half-written file
    print(f"listening on {host}:{port}", flush=True)
    log(f"{host}:{port} -> {args.target[0]}:{args.target[1]}, +{args.delay_ms:g} ms each way")

    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, stop.set)
    await stop.wait()

    server.close()
    conns = list(proxy.conns)
    for t in conns:
        t.cancel()
    await asyncio.gather(*conns, return_exceptions=True)
    await server.wait_closed()  # on 3.12+ this waits for open connections: they are closed by now
    log("stopped")


if __name__ == "__main__":
    asyncio.run(main())
