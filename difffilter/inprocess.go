package difffilter

import (
	"bytes"
	"context"
	"fmt"

	gogit "github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/format/diff"
	"github.com/go-git/go-git/v5/plumbing/object"
)

// loadInProcess reads the diff between the merge base of base and HEAD and HEAD (or base and
// HEAD when they have none) from the repository at or above root, without a git binary, and
// parses it as git's own output.
func loadInProcess(ctx context.Context, root, base string) (*Diff, error) {
	fail := func(err error) (*Diff, error) {
		return nil, fmt.Errorf("diff %s...HEAD in %s: %w", base, root, err)
	}
	repo, err := gogit.PlainOpenWithOptions(root, &gogit.PlainOpenOptions{DetectDotGit: true, EnableDotGitCommonDir: true})
	if err != nil {
		return fail(err)
	}
	headRef, err := repo.Head()
	if err != nil {
		return fail(fmt.Errorf("HEAD: %w", err))
	}
	head, err := repo.CommitObject(headRef.Hash())
	if err != nil {
		return fail(fmt.Errorf("HEAD: %w", err))
	}
	baseHash, err := repo.ResolveRevision(plumbing.Revision(base))
	if err != nil {
		return fail(fmt.Errorf("base %s (fetch it: actions/checkout with fetch-depth: 0): %w", base, err))
	}
	from, err := repo.CommitObject(*baseHash)
	if err != nil {
		return fail(fmt.Errorf("base %s: %w", base, err))
	}
	if mb, err := from.MergeBase(head); err == nil && len(mb) > 0 {
		from = mb[0]
	}
	fromTree, err := from.Tree()
	if err != nil {
		return fail(err)
	}
	toTree, err := head.Tree()
	if err != nil {
		return fail(err)
	}
	changes, err := object.DiffTreeWithOptions(ctx, fromTree, toTree, &object.DiffTreeOptions{DetectRenames: true, RenameScore: 50, RenameLimit: 1000})
	if err != nil {
		return fail(err)
	}
	patch, err := changes.PatchContext(ctx)
	if err != nil {
		return fail(err)
	}
	var buf bytes.Buffer
	if err := diff.NewUnifiedEncoder(&buf, diff.DefaultContextLines).Encode(patch); err != nil {
		return fail(err)
	}
	d, err := Parse(&buf)
	if err != nil {
		return fail(err)
	}
	return d, nil
}
