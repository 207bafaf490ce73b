"""Long calls run without the GIL, and Ctrl-C (SIGINT) interrupts the sampler and the generator."""
import os
import signal
import threading
import time

import pytest

import ltlkit


def interrupt_after(seconds):
    t = threading.Timer(seconds, lambda: os.kill(os.getpid(), signal.SIGINT))
    t.start()
    return t


def test_sampler_is_interruptible():
    s = ltlkit.Sampler("P(b & Y a)", 100)
    start = time.monotonic()
    t = interrupt_after(0.3)
    with pytest.raises(KeyboardInterrupt):
        s.sample(100, True, count=1_000_000, seed=1)  # ~10 s uninterrupted
    t.join()
    assert time.monotonic() - start < 3


def test_generate_dataset_is_interruptible(tmp_path):
    start = time.monotonic()
    t = interrupt_after(0.3)
    with pytest.raises(KeyboardInterrupt):
        # ~50 M symbols uninterrupted; the generator reports progress every 2^20 symbols.
        ltlkit.generate_dataset("P(b & Y a)", str(tmp_path / "d"), train="1:200", test="201:400", per_length=400,
                                boundary_per_length=0)
    t.join()
    assert time.monotonic() - start < 5
    assert not (tmp_path / "d" / "meta.json").exists()  # an interrupted dataset never looks complete


def test_gil_is_released_during_sampling():
    s = ltlkit.Sampler("P(b & Y a)", 60)
    ticks = []
    stop = threading.Event()

    def ticker():
        while not stop.is_set():
            ticks.append(time.monotonic())
            time.sleep(0.005)

    th = threading.Thread(target=ticker)
    th.start()
    time.sleep(0.02)
    before = len(ticks)
    s.sample(60, True, count=60_000, seed=2)  # ~0.5 s in C++
    after = len(ticks)
    stop.set()
    th.join()
    assert after - before >= 10  # the other thread ran meanwhile
