import AppFlipBase
import Testing

@testable import AppFlipModel

/// The page reader against markup modelled on the sign-in and consent pages of common frameworks, and against
/// malformed and hostile input.
@Suite("HTML pages")
struct HTMLDocumentTests {
    /// Django's auth LoginView: a CSRF hidden field first, `next` carried in a hidden field.
    static let django = """
        <!DOCTYPE html><html lang="en"><head><title>Log in | Partner</title>
        <link rel="stylesheet" href="/static/admin/css/base.css"></head><body>
        <form method="post" action="/accounts/login/?next=/oauth/authorize%3Fclient_id%3Dgoogle" id="login-form">
        <input type="hidden" name="csrfmiddlewaretoken" value="Jq8x&amp;Z2Lk">
        <div class="form-row"><label for="id_username">Username:</label>
        <input type="text" name="username" autofocus autocapitalize="none" autocomplete="username" maxlength="150" required id="id_username"></div>
        <input type="password" name="password" autocomplete="current-password" required id="id_password">
        <input type="hidden" name="next" value="/oauth/authorize?client_id=google&amp;state=xyz">
        <input type="submit" value="Log in">
        </form></body></html>
        """

    /// Rails (Devise): `authenticity_token`, the `utf8` check, bracketed field names, a named commit button.
    static let rails = """
        <form class="new_user" id="new_user" action="/users/sign_in" accept-charset="UTF-8" method="post">
        <input name="utf8" type="hidden" value="&#x2713;" autocomplete="off" />
        <input type="hidden" name="authenticity_token" value="k1+2/3==" autocomplete="off" />
        <input autofocus="autofocus" autocomplete="email" type="email" value="" name="user[email]" id="user_email" />
        <input autocomplete="current-password" type="password" name="user[password]" id="user_password" />
        <input name="user[remember_me]" type="hidden" value="0" /><input type="checkbox" value="1" name="user[remember_me]" id="user_remember_me" />
        <input type="submit" name="commit" value="Log in" data-disable-with="Log in" />
        </form>
        """

    /// Spring Security's default login page, and an OAuth consent page with approve and deny buttons.
    static let spring = """
        <html><head><title>Please sign in</title><script src="https://cdn.example.net/widget.js"></script></head>
        <body><div class="container"><form class="form-signin" method="post" action="/login">
        <h2 class="form-signin-heading">Please sign in</h2>
        <p><label for="username" class="sr-only">Username</label><input type="text" id="username" name="username" class="form-control" placeholder="Username" required autofocus></p>
        <p><label for="password" class="sr-only">Password</label><input type="password" id="password" name="password" class="form-control" placeholder="Password" required></p>
        <input name="_csrf" type="hidden" value="a4c1-77f0" />
        <button class="btn btn-lg btn-primary btn-block" type="submit">Sign in</button>
        </form>
        <form name='confirmationForm' action='/oauth2/authorize' method='POST'>
        <input name='client_id' type='hidden' value='google'><input name='state' type='hidden' value='s 1'>
        <input type='checkbox' name='scope' value='devices' checked> devices
        <button name='consent_action' value='approve' type='submit'>Approve</button>
        <button name='consent_action' value='deny'>Deny</button>
        </form></div></body></html>
        """

    /// Express with csurf, written carelessly: unquoted and upper-case attributes, a select, a textarea, a
    /// comment that contains a form, and a meta refresh.
    static let express = """
        <HTML><HEAD><META HTTP-EQUIV=Refresh CONTENT="30; url=/session-expired"></HEAD><BODY>
        <!-- <form id=decoy action=/steal method=post><input name=x value=y></form> -->
        <FORM ID=consent ACTION=/dialog/authorize/decision METHOD=post>
        <INPUT TYPE=hidden NAME=_csrf VALUE=Zx9&#43;q>
        <INPUT TYPE=hidden NAME=transaction_id VALUE=tx-42>
        <SELECT NAME=account><OPTION VALUE=a1>Home<OPTION VALUE=a2 SELECTED>Office</SELECT>
        <TEXTAREA NAME=note>a &lt;b&gt; c</TEXTAREA>
        <INPUT TYPE=submit VALUE=Allow><INPUT TYPE=submit NAME=cancel VALUE=Deny>
        </FORM><script>if (top !== self) { top.location = self.location; }</script></BODY></HTML>
        """

    private func document(_ text: String) -> HTMLDocument { HTMLDocument(Array(text.utf8)) }

    @Test("Django: the login form, its CSRF token and next, with entities decoded")
    func djangoLogin() throws {
        let form = try #require(document(Self.django).form(matching: "username,password"))
        #expect(form.method == "POST")
        #expect(form.action == "/accounts/login/?next=/oauth/authorize%3Fclient_id%3Dgoogle")
        #expect(form.value(of: "csrfmiddlewaretoken") == "Jq8x&Z2Lk")
        #expect(form.value(of: "next") == "/oauth/authorize?client_id=google&state=xyz")
        #expect(form.hiddenFields.map(\.name) == ["csrfmiddlewaretoken", "next"])
        #expect(document(Self.django).form(matching: "#login-form") == form)
    }

    @Test("Rails: bracketed names, the commit button, an unchecked box not sent, a character reference decoded")
    func railsLogin() throws {
        let form = try #require(document(Self.rails).form(matching: "action:/users/sign_in"))
        #expect(form.value(of: "utf8") == "✓")
        #expect(form.value(of: "authenticity_token") == "k1+2/3==")
        #expect(form.hasField("user[email]") && form.hasField("user[password]"))
        #expect(form.fields.filter { $0.name == "user[remember_me]" }.map(\.value) == ["0"])
        #expect(form.submitButtons == [HTMLForm.SubmitButton(name: "commit", value: "Log in")])
    }

    @Test("Spring: the sign-in form and a consent form with approve and deny buttons; third-party scripts are seen")
    func springPages() throws {
        let page = document(Self.spring)
        #expect(page.forms.count == 2)
        let consent = try #require(page.form(matching: "action:/oauth2/authorize"))
        #expect(consent.value(of: "state") == "s 1")
        #expect(consent.value(of: "scope") == "devices")
        #expect(consent.submitButtons.map(\.value) == ["approve", "deny"])
        #expect(page.form(matching: "username,password")?.value(of: "_csrf") == "a4c1-77f0")
        #expect(page.resources.contains("https://cdn.example.net/widget.js"))
    }

    @Test("Express: careless markup, a commented-out decoy form, select, textarea and a meta refresh")
    func expressConsent() throws {
        let page = document(Self.express)
        #expect(page.forms.count == 1, "the form inside a comment is not a form")
        let form = try #require(page.form(matching: "#consent"))
        #expect(form.method == "POST")
        #expect(form.value(of: "_csrf") == "Zx9+q")
        #expect(form.value(of: "account") == "a2")
        #expect(form.value(of: "note") == "a <b> c")
        #expect(
            form.submitButtons == [HTMLForm.SubmitButton(name: nil, value: "Allow"), HTMLForm.SubmitButton(name: "cancel", value: "Deny")],
            "the nameless Allow is a button too: pressed, it sends no pair of its own")
        #expect(page.metaRefreshes == ["30; url=/session-expired"])
        #expect(page.scripts.first?.contains("top.location") == true)
    }

    /// django-oauth-toolkit's consent form: Cancel has no name, so pressing it sends the form without a pair of its own.
    static let dotConsent = """
        <form id="authorizationForm" method="post"><input type="hidden" name="csrfmiddlewaretoken" value="t">
        <input type="hidden" name="redirect_uri" value="https://r.example/cb">
        <input type="submit" class="btn btn-large" value="Cancel"/>
        <input type="submit" class="btn btn-large btn-primary" name="allow" value="Authorize"/>
        </form>
        """

    @Test("A nameless button is a button: found by its label, pressed without a pair, as a browser submits it")
    func namelessButton() throws {
        let form = try #require(document(Self.dotConsent).form(matching: "#authorizationForm"))
        #expect(form.submitButtons.map(\.label) == ["Cancel", "Authorize"])
        let cancel = try #require(form.button(named: "Cancel"))
        #expect(cancel.name == nil && cancel.pairs.isEmpty)
        #expect(form.button(named: "cancel") == cancel, "a label also matches without regard to case")
        #expect(form.button(named: "allow=Authorize")?.pairs.map { "\($0.name)=\($0.value)" } == ["allow=Authorize"])
        #expect(form.button(named: "Authorize")?.name == "allow")
        #expect(form.button(named: "Approve") == nil)
    }

    @Test("A <button>'s label is its text; image buttons send coordinates; disabled and non-submit buttons are not buttons")
    func buttonKinds() throws {
        let page = document(
            """
            <meta name="referrer" content="same-origin">
            <form id=f action=/consent method=post>
            <button name=decision value=approve><span>Allow</span>
               access</button>
            <button type=button name=x>Help</button><button disabled name=d value=1>Off</button>
            <input type=image name=go alt="Go on" src=/go.png><input type=image src=/x.png alt=X>
            <button formaction="/deny" formmethod=get name=decision value=deny>Deny</button>
            <button type=bogus>Plain</button>
            </form>
            """)
        #expect(page.referrerPolicies == ["same-origin"])
        let form = try #require(page.form(matching: "#f"))
        #expect(form.submitButtons.map(\.label) == ["Allow access", "Go on", "X", "Deny", "Plain"])
        #expect(form.button(named: "Allow access")?.pairs.map(\.value) == ["approve"])
        #expect(form.button(named: "Go on")?.pairs.map { "\($0.name)=\($0.value)" } == ["go.x=0", "go.y=0"])
        #expect(form.button(named: "X")?.pairs.map(\.name) == ["x", "y"])
        let deny = try #require(form.button(named: "decision=deny"))
        #expect(deny.formAction == "/deny" && deny.formMethod == "get")
        #expect(form.button(named: "Help") == nil && form.button(named: "Off") == nil)
    }

    @Test(
        "Malformed and hostile input never traps and stays bounded",
        arguments: [
            "<form", "<<<>>>", "<input name=\"unterminated", "<!-- never closed", "<script>while(1){}", "&#xFFFFFFFF; &#0; &bogus;",
            String(repeating: "<a x=1 ", count: 20_000), String(repeating: "<form><input name=a>", count: 30_000),
        ])
    func hostile(_ text: String) {
        let page = document(text)
        #expect(page.forms.count <= 30_000)
        _ = HTMLScanner.tokens(Array(text.utf8))
    }
}
