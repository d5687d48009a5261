# Thin wrappers around tasks.py, which needs nothing but python3.
PY ?= python3
.PHONY: venv book test notebooks bench screenshots clean
venv book test notebooks bench screenshots clean:
	$(PY) tasks.py $@
