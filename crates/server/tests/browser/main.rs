//! End-to-end tests: the real app in a real headless Chromium.
//!
//! Each test starts from the same harness: the server in this process on a
//! free port, Debian's `chromedriver` on another, and a fresh Chromium
//! profile. A missing browser fails the tests with the command that installs
//! it (`bash scripts/install-browser.sh`). Screenshots of each page go to
//! `target/tmp/screenshots/`.
//!
//! Terms:
//! - **harness**: the server and the driver, started once for all tests.
//! - **browser**: one Chromium window, opened per test; the tests take turns
//!   (two cores cannot run several browsers well).

mod pages;
mod webdriver;

use std::net::{SocketAddr, TcpListener};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::{Mutex, MutexGuard, OnceLock};
use std::time::{Duration, Instant};
use webdriver::Session;

/// The server and the driver, shared by every test.
struct Harness {
    base: String,
    driver_port: u16,
    chromium: String,
    data_dir: PathBuf,
    _driver: DriverProcess,
}

/// Kills the driver when the tests end.
struct DriverProcess(Child);

impl Drop for DriverProcess {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// The first of `names` found on the PATH (or given by `env`).
fn find_program(env: &str, names: &[&str]) -> Option<String> {
    if let Ok(path) = std::env::var(env) {
        return Some(path);
    }
    let path = std::env::var_os("PATH")?;
    names.iter().find_map(|name| {
        std::env::split_paths(&path)
            .map(|dir| dir.join(name))
            .find(|p| p.is_file())
            .map(|p| p.display().to_string())
    })
}

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("a free local port")
}

fn start_harness() -> Harness {
    let install = "run `bash scripts/install-browser.sh` (it installs Debian's chromium and \
                   chromium-driver), or set PARLOR_CHROMIUM and PARLOR_CHROMEDRIVER";
    let chromium = find_program("PARLOR_CHROMIUM", &["chromium", "chromium-browser"])
        .unwrap_or_else(|| panic!("the browser tests need Chromium, which is missing: {install}"));
    let chromedriver =
        find_program("PARLOR_CHROMEDRIVER", &["chromedriver"]).unwrap_or_else(|| {
            panic!("the browser tests need chromedriver, which is missing: {install}")
        });

    // Chromium may still be writing a profile as its window closes, so a
    // profile is not always removed at once: clear them all at each start.
    let _ = std::fs::remove_dir_all(profiles_dir());
    std::fs::create_dir_all(profiles_dir()).expect("a folder for browser profiles");
    let data_dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("browser-data");
    let _ = std::fs::remove_dir_all(&data_dir);
    std::fs::create_dir_all(&data_dir).expect("a data dir for the test server");
    let config = server::Config::new(data_dir.clone());
    let (tx, rx) = std::sync::mpsc::channel::<SocketAddr>();
    std::thread::spawn(move || {
        let addr: SocketAddr = "127.0.0.1:0".parse().expect("an address");
        let result = server::run(addr, config, move |bound| {
            let _ = tx.send(bound);
        });
        if let Err(e) = result {
            eprintln!("the test server stopped: {e}");
        }
    });
    let addr = rx
        .recv_timeout(Duration::from_secs(30))
        .expect("the server to start");

    let driver_port = free_port();
    let driver = Command::new(&chromedriver)
        .arg(format!("--port={driver_port}"))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot start {chromedriver}: {e}; {install}"));
    let driver = DriverProcess(driver);
    let deadline = Instant::now() + Duration::from_secs(30);
    while !webdriver::driver_ready(driver_port) {
        assert!(
            Instant::now() < deadline,
            "chromedriver did not become ready on port {driver_port}"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
    Harness {
        base: format!("http://{addr}"),
        driver_port,
        chromium,
        data_dir,
        _driver: driver,
    }
}

/// Where the browsers' fresh profiles go.
fn profiles_dir() -> PathBuf {
    Path::new(env!("CARGO_TARGET_TMPDIR")).join("browser-profiles")
}

fn harness() -> &'static Harness {
    static HARNESS: OnceLock<Harness> = OnceLock::new();
    HARNESS.get_or_init(start_harness)
}

/// One browser window on the app; tests take turns holding one.
pub struct Browser {
    // Fields drop in this order: the window closes, then its profile is
    // removed, then the next test may start.
    session: Session,
    _profile: tempfile::TempDir,
    base: String,
    _turn: MutexGuard<'static, ()>,
}

impl Browser {
    /// Waits for this test's turn, then opens a fresh headless Chromium.
    pub fn open() -> Self {
        static TURN: Mutex<()> = Mutex::new(());
        let turn = TURN
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        let h = harness();
        let profile = tempfile::tempdir_in(profiles_dir()).expect("a browser profile");
        let args: Vec<String> = [
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--disable-dev-shm-usage",
            "--hide-scrollbars",
            "--window-size=1400,1000",
        ]
        .iter()
        .map(|s| (*s).to_string())
        .chain([format!("--user-data-dir={}", profile.path().display())])
        .collect();
        let session = Session::start(h.driver_port, &h.chromium, &args)
            .unwrap_or_else(|e| panic!("cannot open Chromium: {e}"));
        session.set_size(1400, 1000);
        Self {
            session,
            _profile: profile,
            base: h.base.clone(),
            _turn: turn,
        }
    }

    /// Goes to the app's page at `path`.
    pub fn visit(&self, path: &str) {
        self.session.goto(&format!("{}{path}", self.base));
    }

    /// The server's address, `http://127.0.0.1:PORT`.
    pub fn base(&self) -> &str {
        &self.base
    }

    /// Saves a screenshot of the window as `target/tmp/screenshots/NAME.png`
    /// (the full height of the page).
    pub fn screenshot(&self, name: &str) -> PathBuf {
        let height = self
            .session
            .script(
                "return Math.ceil(document.documentElement.scrollHeight);",
                vec![],
            )
            .as_u64()
            .unwrap_or(1000)
            .clamp(600, 2400) as u32;
        self.session.set_size(1400, height + 140);
        self.session.pointer_away();
        let png = self.session.screenshot();
        assert!(png.starts_with(b"\x89PNG"), "a screenshot is a PNG");
        let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("screenshots");
        std::fs::create_dir_all(&dir).expect("a screenshot directory");
        let path = dir.join(format!("{name}.png"));
        std::fs::write(&path, png).expect("the screenshot saved");
        self.session.set_size(1400, 1000);
        path
    }
}

impl std::ops::Deref for Browser {
    type Target = Session;
    fn deref(&self) -> &Session {
        &self.session
    }
}

/// Where the test server saves files.
pub fn data_dir() -> &'static Path {
    &harness().data_dir
}
