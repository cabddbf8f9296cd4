export default function Carts() {
  return <div>Carts</div>;
}
