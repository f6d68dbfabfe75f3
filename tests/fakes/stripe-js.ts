/**
 * A fake Stripe.js, served in place of https://js.stripe.com/** in browser tests: just the surface
 * the Payment Element path uses (Stripe(), elements(), create('payment').mount(), confirmSetup()).
 * The "card form" is a plain input labelled 'Card number' rendered into the mount node; confirmSetup
 * posts it to https://api.stripe.com/v1/setup_intents/{id}/confirm, which the test routes to the fake
 * Stripe API. With redirect 'always' (or a 3-D Secure test card) it leaves for the return URL as Stripe does.
 */
export const FAKE_STRIPE_JS = String.raw`
(function () {
  var THREE_DS = "4000002500003155";
  function Stripe(publishableKey) {
    var mounted = null;
    function element(type, options) {
      var handlers = {};
      var node = null;
      return {
        mount: function (target) {
          node = typeof target === "string" ? document.querySelector(target) : target;
          var wrap = document.createElement("div");
          wrap.setAttribute("data-fake-stripe", type);
          wrap.setAttribute("data-layout", (options && options.layout) || "");
          var label = document.createElement("label");
          label.textContent = "Card number";
          label.style.display = "block";
          var input = document.createElement("input");
          input.name = "cardnumber";
          input.autocomplete = "cc-number";
          input.className = "input input-bordered w-full";
          input.inputMode = "numeric";
          // Stripe's fields are in an iframe: the page never sees their keys, and Escape is reported as
          // the element's "escape" event.
          input.addEventListener("keydown", function (e) {
            e.stopPropagation();
            if (e.key === "Escape") (handlers.escape || []).forEach(function (cb) { cb({ elementType: type }); });
          });
          label.appendChild(input);
          var tab = document.createElement("div");
          tab.setAttribute("role", "tab");
          tab.textContent = "Card";
          wrap.appendChild(tab);
          wrap.appendChild(label);
          node.appendChild(wrap);
          mounted = input;
          setTimeout(function () { (handlers.ready || []).forEach(function (cb) { cb({ elementType: type }); }); }, 0);
        },
        on: function (event, cb) { (handlers[event] = handlers[event] || []).push(cb); return this; },
        off: function (event, cb) { handlers[event] = (handlers[event] || []).filter(function (h) { return h !== cb; }); return this; },
        update: function () {},
        focus: function () { if (mounted) mounted.focus(); },
        blur: function () {},
        clear: function () { if (mounted) mounted.value = ""; },
        collapse: function () {},
        unmount: function () { if (node) node.innerHTML = ""; },
        destroy: function () { if (node) node.innerHTML = ""; mounted = null; },
      };
    }
    var elementsOptions = null;
    return {
      _registerWrapper: function () {},
      registerAppInfo: function () {},
      createToken: function () { return Promise.reject(new Error("not in the fake")); },
      createPaymentMethod: function () { return Promise.reject(new Error("not in the fake")); },
      confirmCardPayment: function () { return Promise.reject(new Error("not in the fake")); },
      elements: function (options) {
        elementsOptions = options || {};
        var created = {};
        return {
          create: function (type, opts) { created[type] = element(type, opts); return created[type]; },
          getElement: function (type) { return created[type] || null; },
          update: function () {},
          fetchUpdates: function () { return Promise.resolve({}); },
          submit: function () { return Promise.resolve({}); },
          on: function () {},
        };
      },
      confirmSetup: function (args) {
        var secret = elementsOptions && elementsOptions.clientSecret;
        var id = String(secret).split("_secret_")[0];
        var number = mounted ? mounted.value.replace(/\s/g, "") : "";
        var body = new URLSearchParams({ client_secret: secret, "payment_method_data[card][number]": number });
        return fetch("https://api.stripe.com/v1/setup_intents/" + id + "/confirm", {
          method: "POST",
          headers: { "content-type": "application/x-www-form-urlencoded", authorization: "Bearer " + publishableKey },
          body: body.toString(),
        }).then(function (response) {
          return response.json().then(function (json) {
            if (!response.ok) return { error: json.error };
            var redirectAlways = !args.redirect || args.redirect === "always" || number === THREE_DS;
            if (redirectAlways) {
              var url = new URL(args.confirmParams.return_url);
              url.searchParams.set("setup_intent", json.id);
              url.searchParams.set("setup_intent_client_secret", json.client_secret);
              url.searchParams.set("redirect_status", json.status === "succeeded" ? "succeeded" : "failed");
              window.location.assign(url.toString());
              return new Promise(function () {});
            }
            return { setupIntent: json };
          });
        });
      },
    };
  }
  Stripe.version = 3;
  window.Stripe = Stripe;
})();
`;
