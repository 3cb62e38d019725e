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
//! - **own server**: an app server of one test's own ([`OwnServer`]), with
//!   its own port and store, for a test that stops and restarts it as a
//!   crash and restart would; no other test's page sees it go.
//! - **browser**: one Chromium window with a profile of its own, opened per
//!   test. A test of people playing each other opens a **group** of
//!   browsers at once ([`Browser::group`]): separate profiles, as separate
//!   people's devices.
//! - **turn**: the right to hold browsers. Up to [`AT_ONCE`] tests hold
//!   them at a time (a test mostly waits on its page: animations, a bot's
//!   pace, live updates).

mod added_game;
mod baffle;
mod checks;
mod chutes;
mod classroom;
mod layout;
mod onetap;
mod pace;
mod pages;
mod phone_text;
mod together;
mod tycoon;
mod tycoon_chances;
mod webdriver;
mod words;

use std::net::{SocketAddr, TcpListener};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::{Condvar, Mutex, OnceLock};
use std::time::{Duration, Instant};
use webdriver::Session;

/// The server and the driver, shared by every test.
struct Harness {
    base: String,
    driver_port: u16,
    chromium: String,
    _server: TestServer,
    _driver: DriverProcess,
}

/// The app's server, on a thread of its own, until told to stop.
struct TestServer {
    addr: SocketAddr,
    stop: Option<tokio::sync::oneshot::Sender<()>>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl TestServer {
    /// Starts the app on `addr` (port 0: any) with its store in `data_dir`.
    fn start(addr: SocketAddr, data_dir: &Path) -> Self {
        let mut config = server::Config::new(data_dir.to_path_buf());
        // A game with no page of its own (testkit's race): any game's page
        // plays it; and one with its own page module (the tests' Nim).
        config.games = games::Registry::standard()
            .with(&testkit::race::RACE)
            .with(&nim::NIM);
        config.shutdown_grace = Duration::from_secs(2);
        // Hints and analyses in a debug build on a busy machine: no 10 s limit.
        config.long_work_limit = Duration::from_secs(600);
        // One browser makes every test's games, designs and analyses from
        // one address, faster than a person: no fair-share limits here
        // (tests/fairness.rs tests them).
        config.rate_limit = 0;
        config.matches_per_client = 0;
        config.sessions_per_client = 0;
        config.grids_per_client = 0;
        // Working on the pages: PARLOR_WEB_DIR=crates/server/web serves them
        // as they are on disk, with no rebuild between edits.
        config.web_dir = std::env::var_os("PARLOR_WEB_DIR").map(PathBuf::from);
        let (ready_tx, ready) = std::sync::mpsc::channel::<std::io::Result<SocketAddr>>();
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        let thread = std::thread::spawn(move || {
            let runtime = tokio::runtime::Builder::new_multi_thread()
                .enable_all()
                .build()
                .expect("a runtime for the test server");
            runtime.block_on(async move {
                // The port may still be held a moment after a restart.
                let mut tries = 0;
                let listener = loop {
                    match tokio::net::TcpListener::bind(addr).await {
                        Ok(listener) => break listener,
                        Err(e) if tries < 50 => {
                            tries += 1;
                            let _ = e;
                            tokio::time::sleep(Duration::from_millis(100)).await;
                        }
                        Err(e) => {
                            let _ = ready_tx.send(Err(e));
                            return;
                        }
                    }
                };
                let _ = ready_tx.send(listener.local_addr());
                let stop = async {
                    let _ = stopped.await;
                };
                if let Err(e) = server::serve_until(listener, config, stop).await {
                    eprintln!("the test server stopped: {e}");
                }
            });
        });
        let addr = ready
            .recv_timeout(Duration::from_secs(60))
            .expect("the server to start")
            .expect("the server's port");
        Self {
            addr,
            stop: Some(stop),
            thread: Some(thread),
        }
    }

    /// Stops the server and waits for it.
    fn stop(&mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
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
    on_path(names)
}

/// The first of `names` found on the PATH.
fn on_path(names: &[&str]) -> Option<String> {
    let path = std::env::var_os("PATH")?;
    names.iter().find_map(|name| {
        std::env::split_paths(&path)
            .map(|dir| dir.join(name))
            .find(|p| p.is_file())
            .map(|p| p.display().to_string())
    })
}

/// Starts `program` with `args`, tied to this test process: the harness
/// lives in a static that is never dropped, so its `chromedriver` is
/// killed when the process ends, however it ends. With util-linux's
/// `setpriv --pdeathsig` (in every Debian) the kernel sends the kill when
/// the thread that started it ends, so it is started from a thread that
/// lives as long as the process; without `setpriv` it is started as it is.
fn spawn_tied(program: &str, args: &[String]) -> std::io::Result<Child> {
    let setpriv = find_program("PARLOR_SETPRIV", &["setpriv"]);
    let mut command = match &setpriv {
        Some(setpriv) => {
            let mut c = Command::new(setpriv);
            c.args(["--pdeathsig", "KILL", "--", program]);
            c
        }
        None => Command::new(program),
    };
    command
        .args(args)
        .stdout(Stdio::null())
        .stderr(Stdio::null());
    let (sender, answer) = std::sync::mpsc::channel();
    std::thread::Builder::new()
        .name("chromedriver-parent".into())
        .spawn(move || {
            let _ = sender.send(command.spawn());
            loop {
                std::thread::park();
            }
        })?;
    answer
        .recv()
        .map_err(|_| std::io::Error::other("the starting thread ended"))?
}

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("a free local port")
}

/// The browser the tests drive: `PARLOR_CHROMIUM`, else Chromium's
/// headless shell (Chromium's engine without a desktop browser's own
/// windows and pages: the browser tests take a third less time in it),
/// else the desktop `chromium`. A headless shell is started through
/// [`blank_page_launcher`].
fn find_browser() -> Option<String> {
    let program = std::env::var("PARLOR_CHROMIUM")
        .ok()
        .or_else(|| on_path(&["chromium-headless-shell", "chromium", "chromium-browser"]))?;
    if Path::new(&program)
        .file_name()
        .is_some_and(|name| name.to_string_lossy().contains("headless-shell"))
    {
        return Some(blank_page_launcher(&program));
    }
    Some(program)
}

/// A script that starts the headless shell `program` on a blank page.
/// Driven by chromedriver (through its debugging port), the shell opens no
/// page of its own, and chromedriver, which needs one, drops a page given
/// among the arguments: the script adds it after them.
fn blank_page_launcher(program: &str) -> String {
    use std::os::unix::fs::PermissionsExt;
    let dir = own_dir("browser-launcher");
    std::fs::create_dir_all(&dir).expect("a folder for the browser's launcher");
    let launcher = dir.join("headless-shell");
    let quoted = program.replace('\'', "'\\''");
    let script = format!("#!/bin/sh\nexec '{quoted}' \"$@\" about:blank\n");
    let written = dir.join("headless-shell.new");
    std::fs::write(&written, script).expect("the browser's launcher written");
    std::fs::set_permissions(&written, std::fs::Permissions::from_mode(0o755))
        .expect("the browser's launcher made runnable");
    std::fs::rename(&written, &launcher).expect("the browser's launcher in place");
    launcher.display().to_string()
}

fn start_harness() -> Harness {
    let install = "run `bash scripts/install-browser.sh` (it installs Debian's \
                   chromium-headless-shell and chromium-driver), or set PARLOR_CHROMIUM and \
                   PARLOR_CHROMEDRIVER";
    let chromium = find_browser()
        .unwrap_or_else(|| panic!("the browser tests need Chromium, which is missing: {install}"));
    let chromedriver =
        find_program("PARLOR_CHROMEDRIVER", &["chromedriver"]).unwrap_or_else(|| {
            panic!("the browser tests need chromedriver, which is missing: {install}")
        });

    // Chromium may still be writing a profile as its window closes, so a
    // profile is not always removed at once: clear them all at each start.
    remove_dead_runs_dirs();
    let _ = std::fs::remove_dir_all(profiles_dir());
    std::fs::create_dir_all(profiles_dir()).expect("a folder for browser profiles");
    let data_dir = own_dir("browser-data");
    let _ = std::fs::remove_dir_all(&data_dir);
    std::fs::create_dir_all(&data_dir).expect("a data dir for the test server");
    let server = TestServer::start("127.0.0.1:0".parse().expect("an address"), &data_dir);
    let addr = server.addr;

    let driver_port = free_port();
    let driver = spawn_tied(&chromedriver, &[format!("--port={driver_port}")])
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
        _server: server,
        _driver: driver,
    }
}

/// An app server of one test's own, on its own port and store: a test that
/// stops and restarts the server opens its browsers on one
/// ([`Browser::open_on`], [`Browser::group_on`]), so that no other test's
/// page sees it go. Stopped when dropped.
pub struct OwnServer {
    base: String,
    server: Mutex<TestServer>,
    data_dir: tempfile::TempDir,
}

impl OwnServer {
    /// Starts an app server with a fresh store, on a free port.
    pub fn start() -> Self {
        let servers = own_dir("browser-servers");
        std::fs::create_dir_all(&servers).expect("a folder for the tests' own servers");
        let data_dir = tempfile::tempdir_in(&servers).expect("a data dir for a test's server");
        let server = TestServer::start("127.0.0.1:0".parse().expect("an address"), data_dir.path());
        Self {
            base: format!("http://{}", server.addr),
            server: Mutex::new(server),
            data_dir,
        }
    }

    /// Stops the server and starts it again on the same port and store, as
    /// a crash and a restart would; pages reconnect by themselves.
    pub fn restart(&self) {
        self.while_down(|| {});
    }

    /// Stops the server, runs `meanwhile` (the pages find no server), then
    /// starts it again on the same port and store.
    pub fn while_down(&self, meanwhile: impl FnOnce()) {
        let mut server = self
            .server
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        let addr = server.addr;
        server.stop();
        meanwhile();
        *server = TestServer::start(addr, self.data_dir.path());
    }
}

impl Drop for OwnServer {
    fn drop(&mut self) {
        self.server
            .get_mut()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .stop();
    }
}

/// Where the browsers' fresh profiles go.
fn profiles_dir() -> PathBuf {
    own_dir("browser-profiles")
}

/// This test run's own folder `NAME-PID` in the target's tmp folder: runs
/// of the browser tests at the same time (several people on one machine)
/// must not remove each other's store or profiles.
fn own_dir(name: &str) -> PathBuf {
    Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("{name}-{}", std::process::id()))
}

/// Removes the folders of runs whose process has ended (where /proc tells).
fn remove_dead_runs_dirs() {
    let tmp = Path::new(env!("CARGO_TARGET_TMPDIR"));
    if !Path::new("/proc/self").exists() {
        return;
    }
    let Ok(entries) = std::fs::read_dir(tmp) else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name().to_string_lossy().to_string();
        let pid = ["browser-data-", "browser-profiles-", "browser-servers-"]
            .iter()
            .find_map(|prefix| name.strip_prefix(prefix))
            .and_then(|pid| pid.parse::<u32>().ok());
        if let Some(pid) = pid
            && !Path::new("/proc").join(pid.to_string()).exists()
        {
            let _ = std::fs::remove_dir_all(entry.path());
        }
    }
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
    _turn: Option<Turn>,
}

/// How many tests hold browsers at once.
pub const AT_ONCE: usize = 3;

/// How many tests hold browsers now.
static HOLDING: Mutex<usize> = Mutex::new(0);
static TURN_CHANGED: Condvar = Condvar::new();

/// A test's turn at the browsers, given back when dropped.
pub struct Turn;

impl Drop for Turn {
    fn drop(&mut self) {
        let mut holding = HOLDING
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        *holding -= 1;
        TURN_CHANGED.notify_all();
    }
}

/// Waits for a turn at the browsers.
fn take_turn() -> Turn {
    let mut holding = HOLDING
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    while *holding >= AT_ONCE {
        holding = TURN_CHANGED
            .wait(holding)
            .unwrap_or_else(std::sync::PoisonError::into_inner);
    }
    *holding += 1;
    Turn
}

impl Browser {
    /// Waits for this test's turn, then opens a fresh headless Chromium of
    /// 1400 × 1000.
    pub fn open() -> Self {
        Self::open_at(1400, 1000)
    }

    /// Waits for this test's turn, then opens a fresh headless Chromium
    /// whose page is `width` × `height`.
    pub fn open_at(width: u32, height: u32) -> Self {
        let turn = take_turn();
        let mut browser = Self::launch(&harness().base, width, height);
        browser._turn = Some(turn);
        browser
    }

    /// Waits for this test's turn, then opens a fresh headless Chromium of
    /// 1400 × 1000 on the test's own `server`.
    pub fn open_on(server: &OwnServer) -> Self {
        let turn = take_turn();
        let mut browser = Self::launch(&server.base, 1400, 1000);
        browser._turn = Some(turn);
        browser
    }

    /// Waits for this test's turn, then opens `n` fresh headless Chromiums,
    /// each with a profile of its own: separate people on separate devices.
    pub fn group(n: usize) -> Vec<Self> {
        Self::group_at(&harness().base, n)
    }

    /// [`Browser::group`] on the test's own `server`.
    pub fn group_on(server: &OwnServer, n: usize) -> Vec<Self> {
        Self::group_at(&server.base, n)
    }

    fn group_at(base: &str, n: usize) -> Vec<Self> {
        let turn = take_turn();
        let mut browsers: Vec<Self> = (0..n).map(|_| Self::launch(base, 1280, 900)).collect();
        // The last to close gives the turn back.
        if let Some(last) = browsers.last_mut() {
            last._turn = Some(turn);
        }
        browsers
    }

    fn launch(base: &str, width: u32, height: u32) -> Self {
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
        ]
        .iter()
        .map(|s| (*s).to_string())
        .chain([
            format!("--window-size={width},{height}"),
            format!("--user-data-dir={}", profile.path().display()),
        ])
        .collect();
        let session = Session::start(h.driver_port, &h.chromium, &args)
            .unwrap_or_else(|e| panic!("cannot open Chromium: {e}"));
        checks::set_viewport(
            &session,
            checks::Viewport {
                name: "window",
                width,
                height,
            },
        );
        Self {
            session,
            _profile: profile,
            base: base.to_string(),
            _turn: None,
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

    /// Waits until the figure `figure` (a CSS selector) is shown with its
    /// chart drawn into the page (not an `<img>`: so that the page's scheme
    /// repaints it), read as one image; returns the chart's label.
    pub fn wait_for_chart(&self, figure: &str) -> String {
        self.wait_for(&format!("the chart in {figure}"), || {
            let label = self.script(
                "const f = document.querySelector(arguments[0]); \
                 const svg = f && !f.hidden && f.querySelector('svg.parlor-picture[role=img]'); \
                 return svg ? svg.getAttribute('aria-label') : null;",
                vec![serde_json::json!(figure)],
            );
            label.as_str().map(str::to_string)
        })
    }

    /// Switches the page to the `scheme` ("light" or "dark") with the
    /// header's switch, as a person would, without reloading it.
    pub fn switch_scheme(&self, scheme: &str) {
        for _ in 0..3 {
            if self.attr_css("html", "data-theme").as_deref() == Some(scheme) {
                return;
            }
            self.click_css("header.top button.theme-toggle");
        }
        panic!("the header's switch never showed the {scheme} scheme");
    }

    /// Saves a screenshot of the window as it is (its size kept), as
    /// `target/tmp/screenshots/NAME.png`: a phone's view of a page.
    pub fn screenshot_as_is(&self, name: &str) -> PathBuf {
        self.session.pointer_away();
        let png = self.session.screenshot();
        assert!(png.starts_with(b"\x89PNG"), "a screenshot is a PNG");
        let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("screenshots");
        std::fs::create_dir_all(&dir).expect("a screenshot directory");
        let path = dir.join(format!("{name}.png"));
        std::fs::write(&path, png).expect("the screenshot saved");
        path
    }
}

impl std::ops::Deref for Browser {
    type Target = Session;
    fn deref(&self) -> &Session {
        &self.session
    }
}

/// Opens the page's "Custom game" drawer (`#custom`), where each game's
/// full new-game form is folded under the one-tap starts.
pub fn open_custom(b: &Browser) {
    b.find("#custom");
    b.script("document.getElementById('custom').open = true;", vec![]);
}

/// Opens an invite link in `b` as the friend it was sent to: the page asks
/// their name first ("Join Ada's game"); `name` is given and the seat taken.
pub fn open_invite(b: &Browser, url: &str, name: &str) {
    b.goto(url);
    b.find("#join-gate #join-name");
    b.fill("#join-name", name);
    b.click_css("#join-game");
    b.wait_for("the join gate to close", || {
        b.find_all("#join-gate").is_empty().then_some(())
    });
}

/// Opens every drawer of the page (`details.drawer`: a game's rules, keys,
/// tallies; and the Custom game form), as a person reading them would.
pub fn open_drawers(b: &Browser) {
    b.script(
        "for (const d of document.querySelectorAll('details.drawer, details.custom-game')) d.open = true;",
        vec![],
    );
}
