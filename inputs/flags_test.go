package inputs

import "flag"

// update rewrites the golden files of this package's tests (go test ./inputs -update); shared by
// every golden test here, so declare no other -update flag in package inputs.
var update = flag.Bool("update", false, "rewrite golden files")
