import os

# Qt must not look for a display in tests; without this pytest aborts on a headless machine.
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
