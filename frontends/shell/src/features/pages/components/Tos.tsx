import { Link } from '@decor/web-core/router';

/** The privacy policy and end user license agreement page. */
export default function Tos() {
  return (
    <div className="page" style={{ maxWidth: 820 }}>
      <h1>Privacy Policy and End User License Agreement</h1>
      <h2>Privacy Policy</h2>
      <p className="lead">
        We collect the details you give us (your name, company, e-mail address, phone number and the details
        of your events) only to prepare estimates, deliver and collect rentals, invoice and answer your
        questions. We keep them in our systems and our accounting provider's, we never sell them, and we share
        them only with the people who need them to serve your event. You may ask us at any time to see,
        correct or delete your details.
      </p>
      <h2>End User License Agreement</h2>
      <p className="lead">
        This site lets you browse our rental inventory, keep carts and send us order requests. An order
        request is not a contract: it becomes one when we confirm an estimate and you accept it. Photos show
        typical pieces; the items delivered may vary slightly. Please keep your login details private; you are
        responsible for requests made with your account.
      </p>
      <p>
        Questions? Call or e-mail us. <Link to="/">Back to the home page</Link>
      </p>
    </div>
  );
}
