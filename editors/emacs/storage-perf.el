;;; storage-perf.el --- storage-perf language server through eglot  -*- lexical-binding: t; -*-

;; Emacs 28 with the eglot package (built in from Emacs 29). Load this file from your init file:
;;   (load "/path/to/storage-perf.el")
;; The server command: `npx --no-install storage-perf-language-server --stdio` finds the server installed in
;; the project; set `storage-perf-server-command' before loading to use another one, e.g.
;;   (setq storage-perf-server-command
;;         '("node" "/path/to/storage-perf/server/bin/storage-perf-language-server.js" "--stdio"))

;;; Code:

(require 'eglot)

(defvar storage-perf-server-command
  '("npx" "--no-install" "storage-perf-language-server" "--stdio")
  "Command that starts the storage-perf language server over stdio.")

;; A mode of its own, so that eglot starts our server rather than a YAML one for these files; it derives
;; from yaml-mode when that package is installed, for indentation and highlighting.
(if (fboundp 'yaml-mode)
    (define-derived-mode storage-perf-mode yaml-mode "Storage-Perf")
  (define-derived-mode storage-perf-mode prog-mode "Storage-Perf"
    (setq-local comment-start "# ")))

(add-to-list 'auto-mode-alist '("\\.perf\\.ya?ml\\'" . storage-perf-mode))
(add-to-list 'eglot-server-programs
             `(storage-perf-mode . ,(lambda (&rest _) storage-perf-server-command)))
(add-hook 'storage-perf-mode-hook #'eglot-ensure)

(provide 'storage-perf)
;;; storage-perf.el ends here
