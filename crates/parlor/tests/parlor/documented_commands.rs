//! Every `parlor` command the README and docs/*.md show, run with the real
//! binary: a doc that names a command that does not exist, a flag that is
//! gone, or output that has changed fails here.
//!
//! Terms:
//! - **shown command**: a line of a fenced code block that starts with
//!   `parlor ` or `$ parlor ` (a trailing `# comment` is not part of it).
//!   Each runs in a fresh directory holding the files the docs name
//!   (`tests/data/documented/`), with `docs/` and `crates/` of the
//!   repository beside them, and a standard input that stays open and
//!   silent (a person who has not typed yet).
//! - **shown output**: the lines after a `$ parlor` line, up to the next `$`
//!   line or the end of the block; the command's output (stdout then
//!   stderr) must be those lines.
//! - **budget**: a command still running after [`BUDGET`] (a simulation of
//!   ten million games in this debug build, a tournament, a server) is
//!   stopped there and passes if it has written no error: its arguments
//!   were accepted, and it was doing its work.
//! - **named command**: `parlor …` in backticks in the prose; its
//!   subcommands must exist (`parlor SUBCOMMANDS --help` succeeds).
//!
//! A server (`parlor serve …`) runs on loopback: its `--addr` and
//! `--metrics-addr` become `127.0.0.1:0`, its `--data-dir` a temporary
//! directory, and a `--database` URL of the docs' example host is left out
//! (the store's own tests run against PostgreSQL); it must print its URL
//! and answer `GET /healthz`.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// How long a shown command may run before it is stopped (and passes if
/// it wrote no error).
const BUDGET: Duration = Duration::from_secs(2);

/// The repository's root.
fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// README.md and every docs/*.md, as paths relative to the root.
fn documents() -> Vec<PathBuf> {
    let mut docs: Vec<PathBuf> = std::fs::read_dir(root().join("docs"))
        .expect("docs/")
        .map(|entry| entry.expect("a docs/ entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "md"))
        .map(|p| PathBuf::from("docs").join(p.file_name().expect("a file name")))
        .collect();
    docs.sort();
    let mut all = vec![PathBuf::from("README.md")];
    all.extend(docs);
    all
}

/// One shown command.
#[derive(Debug, Clone)]
struct Shown {
    /// Where it is: `docs/baffle.md:132`.
    place: String,
    /// The document's file name (`baffle.md`), which picks its files.
    document: String,
    /// Its words, after `parlor`, quotes removed.
    args: Vec<String>,
    /// The output the doc shows, if it shows one.
    output: Option<Vec<String>>,
}

/// Splits a shell line into words (single and double quotes, no escapes),
/// stopping at an unquoted `#` that starts a word (a comment) or a
/// trailing `&`.
fn words(line: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut in_word = false;
    let mut quote = None;
    for c in line.chars() {
        match quote {
            Some(q) if c == q => quote = None,
            Some(_) => word.push(c),
            None if c == '\'' || c == '"' => {
                quote = Some(c);
                in_word = true;
            }
            None if c.is_whitespace() => {
                if in_word {
                    words.push(std::mem::take(&mut word));
                    in_word = false;
                }
            }
            None if c == '#' && !in_word => break,
            None => {
                word.push(c);
                in_word = true;
            }
        }
    }
    if in_word {
        words.push(word);
    }
    if words.last().is_some_and(|w| w == "&") {
        words.pop();
    }
    words
}

/// Every shown command of `doc` (relative to the root).
fn shown_commands(doc: &Path) -> Vec<Shown> {
    let text = std::fs::read_to_string(root().join(doc)).expect("a document");
    let document = doc
        .file_name()
        .expect("a file name")
        .to_string_lossy()
        .into_owned();
    let mut found: Vec<Shown> = Vec::new();
    let mut in_block = false;
    // The `$ parlor` command whose output lines are being read.
    let mut reading: Option<usize> = None;
    for (i, line) in text.lines().enumerate() {
        if line.trim_start().starts_with("```") {
            in_block = !in_block;
            reading = None;
            continue;
        }
        if !in_block {
            continue;
        }
        let (command, dollar) = match line.strip_prefix("$ ") {
            Some(rest) => (rest, true),
            None => (line, false),
        };
        if let Some(rest) = command.strip_prefix("parlor ") {
            found.push(Shown {
                place: format!("{}:{}", doc.display(), i + 1),
                document: document.clone(),
                args: words(rest),
                output: dollar.then(Vec::new),
            });
            reading = dollar.then(|| found.len() - 1);
        } else if dollar {
            reading = None;
        } else if let Some(at) = reading {
            if let Some(output) = found[at].output.as_mut() {
                output.push(line.trim_end().to_string());
            }
        }
    }
    found
}

/// Every `parlor …` in backticks in the prose of `doc`: the subcommand
/// words it names (`["chutes", "render"]`), with its place.
fn named_commands(doc: &Path) -> Vec<(String, Vec<String>)> {
    let text = std::fs::read_to_string(root().join(doc)).expect("a document");
    let mut found = Vec::new();
    let mut in_block = false;
    for (i, line) in text.lines().enumerate() {
        if line.trim_start().starts_with("```") {
            in_block = !in_block;
            continue;
        }
        if in_block {
            continue;
        }
        for (n, span) in line.split('`').enumerate() {
            // Odd pieces are inside backticks.
            let Some(rest) = span.strip_prefix("parlor ").filter(|_| n % 2 == 1) else {
                continue;
            };
            let path: Vec<String> = rest
                .split_whitespace()
                .take_while(|w| {
                    w.chars().all(|c| c.is_ascii_lowercase() || c == '-') && !w.starts_with('-')
                })
                .map(str::to_string)
                .collect();
            found.push((format!("{}:{}", doc.display(), i + 1), path));
        }
    }
    found
}

/// A fresh directory for `document`'s commands: the shipped files (a
/// saved game of the document's game as `game.json`), and links to the
/// repository's `docs/` and `crates/`.
fn workdir(document: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("a directory");
    let data = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/documented");
    for entry in std::fs::read_dir(&data).expect("tests/data/documented") {
        let path = entry.expect("an entry").path();
        let name = path
            .file_name()
            .expect("a name")
            .to_string_lossy()
            .into_owned();
        std::fs::copy(&path, dir.path().join(&name)).expect("copy a shipped file");
    }
    let game = if document == "baffle.md" {
        "baffle-game.json"
    } else {
        "tycoon-game.json"
    };
    std::fs::copy(data.join(game), dir.path().join("game.json")).expect("game.json");
    for linked in ["docs", "crates"] {
        std::os::unix::fs::symlink(root().join(linked), dir.path().join(linked)).expect("a link");
    }
    dir
}

/// What a command did.
struct Ran {
    /// Its exit code, or `None` when it was stopped at the budget.
    code: Option<i32>,
    stdout: String,
    stderr: String,
}

/// Reads a child's pipe on a thread, so that a full pipe never blocks it.
fn drain(pipe: impl Read + Send + 'static) -> std::thread::JoinHandle<String> {
    std::thread::spawn(move || {
        let mut bytes = Vec::new();
        let _ = BufReader::new(pipe).read_to_end(&mut bytes);
        String::from_utf8_lossy(&bytes).into_owned()
    })
}

/// Runs `parlor ARGS` in `dir` until it exits or the budget runs out.
fn run(dir: &Path, args: &[String]) -> Ran {
    let mut child = Command::new(env!("CARGO_BIN_EXE_parlor"))
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("parlor runs");
    // Its input stays open and silent, as at a terminal where nobody has
    // typed yet: a game that asks a person waits.
    let _input = child.stdin.take();
    let out = drain(child.stdout.take().expect("stdout"));
    let err = drain(child.stderr.take().expect("stderr"));
    let started = Instant::now();
    let code = loop {
        if let Some(status) = child.try_wait().expect("wait") {
            break Some(status.code().unwrap_or(-1));
        }
        if started.elapsed() > BUDGET {
            let _ = child.kill();
            let _ = child.wait();
            eprintln!(
                "still running after {BUDGET:?}, stopped: parlor {}",
                args.join(" ")
            );
            break None;
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    Ran {
        code,
        stdout: out.join().expect("stdout read"),
        stderr: err.join().expect("stderr read"),
    }
}

/// A server's arguments on loopback: see the module's words.
fn on_loopback(args: &[String], data: &Path) -> Vec<String> {
    let mut out = vec!["serve".to_string()];
    let mut rest = args[1..].iter();
    while let Some(arg) = rest.next() {
        match arg.as_str() {
            "--addr" | "--metrics-addr" => {
                rest.next();
                out.extend([arg.clone(), "127.0.0.1:0".to_string()]);
            }
            "--data-dir" => {
                rest.next();
            }
            "--database" => {
                let url = rest.next().expect("a database URL");
                assert!(
                    url.contains("@db/"),
                    "a --database the test does not know: {url}"
                );
            }
            _ => out.push(arg.clone()),
        }
    }
    if !out.iter().any(|a| a == "--addr") {
        out.extend(["--addr".to_string(), "127.0.0.1:0".to_string()]);
    }
    out.push("--data-dir".to_string());
    out.push(data.display().to_string());
    out
}

/// Kills a child when dropped.
struct Running(Child);

impl Drop for Running {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// Runs a shown `parlor serve …`: it must print its URL and answer
/// `GET /healthz` with 200. The problem, if any.
fn check_server(shown: &Shown, dir: &Path) -> Option<String> {
    let args = on_loopback(&shown.args, &dir.join("serve-data"));
    let mut child = Running(
        Command::new(env!("CARGO_BIN_EXE_parlor"))
            .args(&args)
            .current_dir(dir)
            .env("RUST_LOG", "warn")
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("parlor serve runs"),
    );
    let mut url = String::new();
    BufReader::new(child.0.stdout.take().expect("stdout"))
        .read_line(&mut url)
        .expect("its first line");
    let Some(addr) = url
        .trim()
        .strip_prefix("http://")
        .map(|a| a.trim_end_matches('/'))
    else {
        let _ = child.0.kill();
        let mut err = String::new();
        let _ = child
            .0
            .stderr
            .take()
            .expect("stderr")
            .read_to_string(&mut err);
        return Some(format!("printed no URL: {url:?} {err}"));
    };
    let mut stream = TcpStream::connect(addr).ok()?;
    let _ = stream.set_read_timeout(Some(Duration::from_secs(10)));
    write!(
        stream,
        "GET /healthz HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n"
    )
    .ok()?;
    let mut answer = String::new();
    let _ = stream.read_to_string(&mut answer);
    (!answer.starts_with("HTTP/1.1 200")).then(|| format!("GET /healthz answered {answer:?}"))
}

/// Runs one shown command; the problem, if any.
fn check(shown: &Shown) -> Option<String> {
    let dir = workdir(&shown.document);
    if shown.args.first().is_some_and(|a| a == "serve") {
        return check_server(shown, dir.path());
    }
    let ran = run(dir.path(), &shown.args);
    let said_error = ran.stderr.lines().any(|l| l.starts_with("error"));
    if let Some(expected) = &shown.output {
        let actual: Vec<String> = format!("{}{}", ran.stdout, ran.stderr)
            .lines()
            .map(|l| l.trim_end().to_string())
            .collect();
        let expected: Vec<String> = expected
            .iter()
            .rev()
            .skip_while(|l| l.is_empty())
            .collect::<Vec<_>>()
            .into_iter()
            .rev()
            .cloned()
            .collect();
        return (actual != expected).then(|| {
            format!(
                "shows\n{}\nbut prints\n{}",
                expected.join("\n"),
                actual.join("\n")
            )
        });
    }
    match ran.code {
        Some(0) if !said_error => None,
        None if !said_error => None,
        Some(code) => Some(format!("exits {code}: {}", ran.stderr.trim())),
        None => Some(format!("said an error: {}", ran.stderr.trim())),
    }
}

#[test]
fn every_shown_command_runs_and_prints_what_the_doc_shows() {
    let commands: Vec<Shown> = documents().iter().flat_map(|d| shown_commands(d)).collect();
    assert!(commands.len() >= 100, "{} shown commands", commands.len());
    assert!(
        commands.iter().filter(|c| c.output.is_some()).count() >= 2,
        "the docs show some outputs"
    );
    // Four at a time: most are short, and the long ones mostly wait out
    // the budget (a person's silent input, a server).
    let queue = Mutex::new(commands.into_iter());
    let problems = Mutex::new(Vec::new());
    std::thread::scope(|scope| {
        for _ in 0..4 {
            scope.spawn(|| {
                loop {
                    let next = queue.lock().expect("the queue").next();
                    let Some(shown) = next else { break };
                    if let Some(problem) = check(&shown) {
                        problems.lock().expect("the problems").push(format!(
                            "{}: parlor {}\n  {}",
                            shown.place,
                            shown.args.join(" "),
                            problem.replace('\n', "\n  ")
                        ));
                    }
                }
            });
        }
    });
    let mut problems = problems.into_inner().expect("the problems");
    problems.sort();
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn every_command_named_in_the_prose_exists() {
    let mut missing = Vec::new();
    let mut checked = 0;
    for doc in documents() {
        for (place, path) in named_commands(&doc) {
            let out = Command::new(env!("CARGO_BIN_EXE_parlor"))
                .args(&path)
                .arg("--help")
                .output()
                .expect("parlor runs");
            checked += 1;
            if !out.status.success() {
                missing.push(format!(
                    "{place}: parlor {}: {}",
                    path.join(" "),
                    String::from_utf8_lossy(&out.stderr).trim()
                ));
            }
        }
    }
    assert!(checked >= 20, "{checked} named commands");
    assert!(missing.is_empty(), "{}", missing.join("\n"));
}

#[test]
fn shell_words_keep_quotes_together_and_drop_comments() {
    assert_eq!(
        words(r#"baffle solve --shots "7:22 5:12" --x '[[-1,3]]'   # a comment"#),
        ["baffle", "solve", "--shots", "7:22 5:12", "--x", "[[-1,3]]"]
    );
    assert_eq!(
        words("serve --addr 127.0.0.1:1 &"),
        ["serve", "--addr", "127.0.0.1:1"]
    );
    assert_eq!(
        words("tycoon edit --do \"card 9 # 3\""),
        ["tycoon", "edit", "--do", "card 9 # 3"]
    );
}
