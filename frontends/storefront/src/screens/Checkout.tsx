export default function Checkout() {
  return <div>Checkout</div>;
}
