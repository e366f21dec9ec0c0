"""Drive `acct init` in a real pseudo-terminal: wait for each prompt, answer it, print the screen text at the end.

Usage: drive-init.py ANSWERS_JSON COMMAND ARGS...; ANSWERS_JSON is a list of [text to wait for, keys to send]."""
import json, os, pty, re, select, sys, time

answers = [(expect.encode(), keys.encode()) for expect, keys in json.loads(sys.argv[1])]
argv = sys.argv[2:]
pid, fd = pty.fork()
if pid == 0:
    os.environ["NO_COLOR"] = "1"
    os.environ.pop("NODE_OPTIONS", None)  # tap's hooks are for the tests, not the CLI
    os.execvp(argv[0], argv)
seen = b""
deadline = time.time() + 30
step = 0
while time.time() < deadline:
    r, _, _ = select.select([fd], [], [], 0.1)
    if fd in r:
        try:
            chunk = os.read(fd, 4096)
        except OSError:
            break
        if not chunk:
            break
        seen += chunk
    if step < len(answers) and answers[step][0] in seen.split(b"\x00")[-1][-2000:]:
        time.sleep(0.15)
        os.write(fd, answers[step][1])
        seen += b"\x00"  # marks what has been answered
        step += 1
_, status = os.waitpid(pid, 0)
text = re.sub(rb"\x1b\[[0-9;?]*[A-Za-z]", b"", seen.replace(b"\x00", b"")).decode("utf8", "replace")
sys.stdout.write(text)
sys.exit(os.waitstatus_to_exitcode(status) if step == len(answers) else 99)
