"""The parts of tests/faults/crash_durability.py (its docstring describes the suite).

workload.py    the deterministic workload: the state after commit k is a function of k
processes.py   how the suite starts its child processes (the writer, the checker)
writer.py      the writer child, and the parent's view of what it announced
checker.py     the checker process and the verdict on what a file holds
shim.py        the power-loss shim (powerloss_shim.c): building it, reading its journal
images.py      applying journal records to bytes: replays and power-loss images
suite.py       the suite's figures and failures, and its kill rounds
power_loss.py  the power-loss and creation runs, and the images they are checked on
"""
