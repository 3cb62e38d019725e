# Reads `cargo test` output (stdout and stderr together) and prints one
# summary line — N passed, N failed, N ignored — and, when a test failed,
# the failed tests grouped by subject. scripts/test.sh runs it with a map
# of test binaries to their source files, taken from `cargo test --no-run
# --message-format=json` (lines "EXECUTABLE SOURCE"):
#
#   awk -v root="$PWD" -f scripts/test-summary.awk binaries.map cargo-test.log
#
# A subject is named by its module:
# - a test binary of modules (crates/server/tests/server/main.rs): the
#   binary and the test's first module, `server::fairness`;
# - a test binary of one file (crates/chutes/tests/no_alloc.rs): the crate
#   and the file, `chutes::no_alloc`;
# - a crate's own unit tests: the crate and the test's first module,
#   `chutes::analysis (unit tests)`; its doc tests: `chutes (doc tests)`.

# The map: a binary's file name to its source file, relative to the root.
FILENAME == ARGV[1] {
  n = split($1, parts, "/")
  source = $2
  sub("^" root "/", "", source)
  source_of[parts[n]] = source
  next
}

# The subject of test `name` in the binary whose source is `source`.
function subject_of(source, name,    parts, n, first) {
  n = split(source, parts, "/")
  first = name
  sub(/::.*/, "", first)
  if (n >= 2 && parts[n] == "main.rs" && parts[n - 2] == "tests") {
    return parts[n - 1] (name ~ /::/ ? "::" first : "")
  }
  if (n >= 3 && parts[n - 1] == "tests") {
    sub(/\.rs$/, "", parts[n])
    return parts[n - 2] "::" parts[n]
  }
  if (n >= 3 && parts[n - 1] == "src") {
    return parts[n - 2] (name ~ /::/ ? "::" first : "") " (unit tests)"
  }
  return source
}

# "     Running tests/server/main.rs (target/debug/deps/server-0123abcd)"
# "     Running unittests src/lib.rs (target/debug/deps/chutes-0123abcd)"
/^ +Running / {
  deps = $NF
  sub(/\)$/, "", deps)
  n = split(deps, parts, "/")
  source = (parts[n] in source_of) ? source_of[parts[n]] : ""
  unknown = $2 " " $3
  doc = ""
  binaries++
  next
}
# "   Doc-tests chutes"
/^ +Doc-tests / {
  source = ""
  doc = $2 " (doc tests)"
  binaries++
  next
}
/^test .* \.\.\. FAILED$/ {
  name = $0
  sub(/^test /, "", name)
  sub(/ \.\.\. FAILED$/, "", name)
  subject = doc != "" ? doc : source != "" ? subject_of(source, name) : unknown
  if (!(subject in failed_in)) order[++subjects] = subject
  failed_in[subject] = failed_in[subject] "\n    " name
  next
}
/^test result: / {
  for (i = 1; i <= NF; i++) {
    word = $i
    sub(/;$/, "", word)
    if (word == "passed") passed += $(i - 1)
    if (word == "failed") failed += $(i - 1)
    if (word == "ignored") ignored += $(i - 1)
  }
  results++
}
/^error(\[E[0-9]+\])?: / && results == 0 { build_error = 1 }
END {
  if (results == 0) {
    print "tests: none ran" (build_error ? " (the build failed: see the errors above)" : "")
    exit
  }
  if (subjects > 0) {
    print ""
    print "failed, by subject:"
    for (s = 1; s <= subjects; s++) print "  " order[s] ":" failed_in[order[s]]
  }
  printf "tests: %d passed, %d failed, %d ignored (%d test binaries, doc tests included)\n", passed, failed, ignored, results
}
