//! Running the real `parlor` binary from the CLI tests.
//!
//! Terms: **ok** runs a command that must succeed and returns its stdout;
//! **fails** runs one that must fail, with nothing on stdout, and returns its
//! stderr.

pub mod server;

use serde_json::Value;
use std::io::Write;
use std::process::{Command, Output, Stdio};

/// Runs `parlor ARGS` with an empty stdin.
pub fn parlor(args: &[&str]) -> Output {
    parlor_with_input(args, "")
}

/// Runs `parlor ARGS` with `input` on stdin.
pub fn parlor_with_input(args: &[&str], input: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_parlor"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run parlor");
    let mut stdin = child.stdin.take().expect("stdin");
    // A command may exit before reading its input; that is not a failure here.
    let _ = stdin.write_all(input.as_bytes());
    drop(stdin);
    child.wait_with_output().expect("wait for parlor")
}

/// The command's stdout as text.
pub fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// The command's stderr as text.
pub fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// Runs a command that must succeed; its stdout.
pub fn ok(args: &[&str]) -> String {
    let out = parlor(args);
    assert!(out.status.success(), "{args:?} failed: {}", stderr(&out));
    stdout(&out)
}

/// Runs a command that must succeed and print JSON (and nothing on
/// stderr); the JSON.
pub fn json(args: &[&str]) -> Value {
    let out = parlor(args);
    assert!(out.status.success(), "{args:?} failed: {}", stderr(&out));
    assert!(
        out.stderr.is_empty(),
        "{args:?} wrote to stderr: {}",
        stderr(&out)
    );
    let text = stdout(&out);
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{args:?}: {e}\n{text}"))
}

/// Runs a command that must fail with nothing on stdout; its stderr.
pub fn fails(args: &[&str]) -> String {
    let out = parlor(args);
    assert!(
        !out.status.success(),
        "{args:?} should fail: {}",
        stdout(&out)
    );
    assert!(
        out.stdout.is_empty(),
        "{args:?}: errors go to stderr only, but stdout has: {}",
        stdout(&out)
    );
    stderr(&out)
}

/// A file in `crates/chutes/tests/data`.
pub fn chutes_data(name: &str) -> String {
    format!("{}/../chutes/tests/data/{name}", env!("CARGO_MANIFEST_DIR"))
}

/// Runs `parlor ARGS` in 1 GiB of address space (`prlimit`, which runs
/// it in its own process), presses Ctrl-C (SIGINT) after `after`, and waits
/// for it: long work must stop cleanly with what it has, in memory that
/// does not grow with the work asked for. One still running a minute after
/// Ctrl-C fails the test (and is killed): a stop that never comes.
pub fn interrupted(args: &[&str], after: std::time::Duration) -> Output {
    let mut child = Command::new("prlimit")
        .arg("--as=1073741824")
        .arg(env!("CARGO_BIN_EXE_parlor"))
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run parlor");
    // Both pipes are read meanwhile, so that a long report never blocks it.
    let stdout = drain(child.stdout.take());
    let stderr = drain(child.stderr.take());
    std::thread::sleep(after);
    let sent = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .expect("kill");
    assert!(sent.success(), "kill -INT {}", child.id());
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    let status = loop {
        if let Some(status) = child.try_wait().expect("wait for parlor") {
            break status;
        }
        if std::time::Instant::now() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            panic!("{args:?} did not stop within a minute of Ctrl-C");
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    };
    Output {
        status,
        stdout: stdout.join().expect("stdout read"),
        stderr: stderr.join().expect("stderr read"),
    }
}

/// Reads `pipe` to its end on a thread of its own.
fn drain(pipe: Option<impl std::io::Read + Send + 'static>) -> std::thread::JoinHandle<Vec<u8>> {
    std::thread::spawn(move || {
        let mut bytes = Vec::new();
        if let Some(mut pipe) = pipe {
            let _ = pipe.read_to_end(&mut bytes);
        }
        bytes
    })
}
