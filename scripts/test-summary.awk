# Reads `cargo test` output (stdout and stderr together) and prints one
# summary line — N passed, N failed, N ignored — and, when a test failed,
# the failed tests grouped by subject: the file of the test binary they
# belong to (crates/server/tests/api.rs). scripts/test.sh runs it with a map
# of test binaries to their source files, taken from `cargo test --no-run
# --message-format=json` (lines "EXECUTABLE SOURCE"):
#
#   awk -f scripts/test-summary.awk binaries.map cargo-test.log

# The map: a binary's file name to its source file, relative to the root.
FILENAME == ARGV[1] {
  n = split($1, parts, "/")
  source = $2
  sub("^" root "/", "", source)
  source_of[parts[n]] = source
  next
}

# "     Running tests/api.rs (target/debug/deps/api-0123abcd)"
# "     Running unittests src/lib.rs (target/debug/deps/chutes-0123abcd)"
/^ +Running / {
  deps = $NF
  sub(/\)$/, "", deps)
  n = split(deps, parts, "/")
  subject = (parts[n] in source_of) ? source_of[parts[n]] : $2 " " $3
  binaries++
  next
}
# "   Doc-tests chutes"
/^ +Doc-tests / {
  subject = $2 " (doc tests)"
  binaries++
  next
}
/^test .* \.\.\. FAILED$/ {
  name = $0
  sub(/^test /, "", name)
  sub(/ \.\.\. FAILED$/, "", name)
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
