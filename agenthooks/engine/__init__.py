"""The engine: in-process hooks and command handlers of one event, folded into one decision.

    sources (config/, the Python registry) → specs → plan (select, order)
        → kinds (python in-process, process) → combine (fold, merge) → host (render)
"""
