package standin

import (
	"errors"
	"log/slog"
	"net/http"
	"strconv"

	"github.com/issuefields/issuefields"
	"github.com/issuefields/issuefields/example/internal/jsonanswer"
	"github.com/issuefields/issuefields/webhook"
)

// ErrNoRedelivery is the error of a Config.Redeliver that cannot send a
// delivery again, such as one whose recorded payload was cut; the request is
// then answered 422 with the error's message.
var ErrNoRedelivery = errors.New("the delivery cannot be redelivered")

// redeliver serves POST
// /_issuefields/hooks/{hook_id}/deliveries/{delivery_id}/redeliver with
// cfg.Redeliver: 303 to the hook on the page, so that the page's button
// works without JavaScript. A redelivery asked for while the server stops
// is answered 503, and is not logged: nothing went wrong.
func redeliver(w http.ResponseWriter, r *http.Request, cfg Config) {
	hookID, hookErr := strconv.ParseInt(r.PathValue("hook_id"), 10, 64)
	deliveryID, deliveryErr := strconv.ParseInt(r.PathValue("delivery_id"), 10, 64)
	err := issuefields.ErrNotFound
	if hookErr == nil && deliveryErr == nil {
		err = cfg.Redeliver(r.Context(), hookID, deliveryID)
	}
	switch {
	case err == nil:
		http.Redirect(w, r, Path+"#hook-"+strconv.FormatInt(hookID, 10), http.StatusSeeOther)
	case errors.Is(err, issuefields.ErrNotFound):
		jsonanswer.Write(w, http.StatusNotFound, message("Not Found: no such hook, or no such delivery of it"))
	case errors.Is(err, ErrNoRedelivery):
		jsonanswer.Write(w, http.StatusUnprocessableEntity, message(err.Error()))
	case errors.Is(err, webhook.ErrClosed):
		jsonanswer.Write(w, http.StatusServiceUnavailable, message("Service Unavailable: the server is stopping, and sends no more deliveries"))
	default:
		cfg.Logger.LogAttrs(r.Context(), slog.LevelError, "redelivery failed", slog.Any("error", err))
		jsonanswer.Write(w, http.StatusInternalServerError, message("The redelivery failed: the server's log says why"))
	}
}
